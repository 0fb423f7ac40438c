// @ts-check
// Mutation testing of the reference core's contract behaviour (issue 29): what a client can observe of request
// parsing and validation, the upload path, idempotency, the catalog's ordering, filters and search, pagination,
// the lifecycle and retry, problem rendering and request ids. Left out: the mock controls, the journal, log
// redaction and the run queue, which no client of the contract sees. The only test that may kill a mutant is
// the conformance suite, run in process against the core. `npm run mutation` (scripts/mutation/run.ts) reads
// `mutate` from here, instruments those files once and judges mutant after mutant in long-lived workers; the
// rest of this file is Stryker's own way to the same verdicts, one process per mutant running the whole profile
// (scripts/mutation/suite-against-core.ts): `npx stryker run`, several times slower.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'command',
  commandRunner: {
    command:
      'node --conditions=docproc-source --import tsx --import ./scripts/mutation/register-sandbox.mjs scripts/mutation/suite-against-core.ts',
  },
  coverageAnalysis: 'off',
  mutate: [
    'packages/reference/src/http/fetch-api.ts',
    'packages/reference/src/http/exchange.ts',
    'packages/reference/src/http/problem.ts',
    'packages/reference/src/http/request-id.ts',
    'packages/reference/src/http/upload/form-data-receiver.ts',
    'packages/reference/src/http/upload/multipart-body.ts',
    'packages/reference/src/http/upload/received-upload.ts',
    'packages/reference/src/http/upload/upload-refusal.ts',
    'packages/reference/src/validation.ts',
    'packages/reference/src/serialize.ts',
    'packages/reference/src/api/documents-api.ts',
    'packages/reference/src/api/reference-api.ts',
    'packages/reference/src/api/page-cache.ts',
    'packages/reference/src/api/keys.ts',
    'packages/reference/src/upload/upload-service.ts',
    'packages/reference/src/upload/idempotency.ts',
    'packages/reference/src/store/catalog.ts',
    'packages/reference/src/store/tenant-index.ts',
    'packages/reference/src/store/memory/memory-store.ts',
    'packages/reference/src/processing/lifecycle.ts',
    'packages/reference/src/processing/processor.ts',
    'packages/reference/src/processing/extraction.ts',
  ],
  concurrency: 2,
  // A killed mutant's suite runs twice (scripts/mutation/suite-against-core.ts): three times the clean run's time
  // (Stryker's initial run, so a loaded machine gets longer), and half a minute. A mutant that hangs the core or
  // strands its documents runs into this and counts as killed, so this bound is most of a sample's time.
  timeoutFactor: 3,
  timeoutMS: 30000,
  reporters: ['json', 'progress'],
  jsonReporter: {
    fileName: 'reports/mutation/mutation.json',
  },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['bench/results', 'reports', 'packages/*/dist', 'packages/msw/fixtures'],
};
