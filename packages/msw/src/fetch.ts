/**
 * `@docproc-kit/msw/fetch` (also `docproc-kit/fetch`): the reference service as a `fetch` function, stateful and in memory, for the typed
 * client's `fetch` option in tests that want neither a port nor MSW. Browser-safe.
 * @example
 * import { createDocprocFetch } from '@docproc-kit/msw/fetch';
 * const fetch = createDocprocFetch({ baseUrl: 'http://docproc.test', processingDelayMs: 0 });
 * const docproc = createDocprocClient({ baseUrl: 'http://docproc.test', apiKey: 'docproc-dev-key', fetch });
 */
export type {
  ControlTarget,
  DocprocControls,
  FaultRuleChange,
  FaultsChange,
  RecordedRequest,
  RequestsFilter,
  SeedDocument,
} from './controls.js';
export { DocprocControlError } from './controls.js';
export { createDocprocFetch, type DocprocFetch } from './docproc-fetch.js';
export type { DocprocMockOptions, DocprocMockOrigin, DocprocMockSettings } from './in-process-service.js';
export type { DocprocSeed, SeedFileBody, SeedFileContents } from './seed-option.js';
export type { ExtractImageText } from './text-layer-extractor.js';
