// Test-only: starts the reference server in this process on a free port and prints its base URL,
// for measuring and debugging the suite by hand: `npx tsx conformance/support/serve-reference.ts`.
import { startReferenceServer } from '../../test/support/reference-server.js';

const server = await startReferenceServer({ apiKeys: ['docproc-dev-key', 'docproc-second-key'], maxFiles: 20, maxFileBytes: 1_048_576 });
console.log(server.baseUrl);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void server.close().then(() => process.exit(0)));
