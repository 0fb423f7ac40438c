// Test-only: the fetch mock (createDocprocFetch) on a copy of the reference core's sources, behind a port, in
// this process: `DOCPROC_MUTATED_REFERENCE_SRC=<dir>/src node --conditions=docproc-source --import tsx
// serve-mutated-core.ts`. Prints its base URL on the first line, then serves until SIGTERM. Started by
// mutated-core.ts for the oracle's self-test.
import { register } from 'node:module';

register('./mutated-core-resolve.mjs', import.meta.url);
// Imported after the hook is registered, so the mock and everything it imports of the core come from the copy.
const { createDocprocFetch } = await import('@docproc-kit/msw/fetch');
const { bridgeFetch } = await import('@docproc-kit/test-support/fetch-bridge.js');

const ORIGIN = 'http://docproc.mutated.test';
const settings = JSON.parse(process.argv[2] ?? '{}') as { apiKeys: string[]; maxFileBytes: number; processingDelayMs: number };
const docprocFetch = createDocprocFetch({ baseUrl: ORIGIN, ...settings });
const bridge = await bridgeFetch(docprocFetch, ORIGIN);
console.log(bridge.baseUrl);
process.once('SIGTERM', () => {
  void Promise.all([bridge.close(), docprocFetch.close()]).finally(() => process.exit(0));
});
