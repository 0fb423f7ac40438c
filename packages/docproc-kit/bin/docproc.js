#!/usr/bin/env node
// The installed CLI runs the compiled code (built by `npm run build`, which `npm ci` runs via `prepare`).
// Inside this repository the npm scripts run packages/docproc-kit/src/cli.ts through tsx instead, so they never run stale code.
await import('../dist/cli.js');
