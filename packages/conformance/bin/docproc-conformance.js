#!/usr/bin/env node
// The installed CLI runs the compiled code (built by `npm run build`). Inside this repository the sources
// run through tsx instead (`node --conditions=docproc-source --import tsx packages/conformance/src/cli.ts`).
await import('../dist/cli.js');
