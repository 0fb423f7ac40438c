// Test-only: starts the reference server in this process on a free port and prints its base URL, for
// measuring and debugging the suite by hand: `npx tsx --conditions=docproc-source packages/conformance/proofs/serve-reference.ts [--noisy]`.
// --noisy puts a proxy in front whose document bodies fail the schema with ~4 KB of quotes each (the
// output benchmark in BENCHMARKS.md).

import { startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { noisyDocuments } from './mutant-behaviours.js';

const server = await startReferenceServer({
  apiKeys: ['docproc-dev-key', 'docproc-second-key'],
  maxFiles: 20,
  maxFileBytes: 1_048_576,
  processingDelayMs: 200,
});
const proxy = process.argv.includes('--noisy') ? await startMutationProxy(server.baseUrl, { response: noisyDocuments }) : undefined;
console.log(proxy?.baseUrl ?? server.baseUrl);
const stop = async () => {
  await proxy?.close();
  await server.close();
  process.exit(0);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop());
