/**
 * The typed client of the Document Processing Service. Browser-safe: nothing here imports Node.
 * @example
 * import { createDocprocClient } from '@docproc-kit/client'; // or 'docproc-kit/client' from the whole kit
 * const docproc = createDocprocClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'docproc-dev-key' });
 */

export type { CallOptions, DocprocClient, DocprocClientOptions, UploadOptions, WaitOptions } from './create-client.js';
export { createDocprocClient, DocprocProblemError, WaitTimeoutError } from './create-client.js';
export type { RetryOptions } from './retry.js';
export type * from './types.js';
