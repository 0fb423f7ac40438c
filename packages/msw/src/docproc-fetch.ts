import type { DocprocControls } from './controls.js';
import { createInProcessService, type DocprocMockOptions } from './in-process-service.js';

/** A `fetch` answered by the in-process mock, with its controls. */
export type DocprocFetch = ((input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) & {
  /** The mock controls as functions (reset, seed, nextOutcome, faults, settings, requests). */
  controls: DocprocControls;
  /** Resolves once no processing run is waiting or in progress. */
  idle(): Promise<void>;
  /** Stops processing. */
  close(): Promise<void>;
};

// Settles with the answer, or rejects as fetch does when the request's signal aborts first (the mock goes
// on with the request, as a server that already received it would).
function abortable(signal: AbortSignal, answer: Promise<Response>): Promise<Response> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The reference service's behaviour as a `fetch` function, in this process, with no port and no MSW: for the
 * client's `fetch` option in tests. Stateful and in memory, with the reference server's own rules (the same
 * core: tenants by key, processing on a timer, retries, idempotency, pagination, search by filename and a
 * PDF's text layer, mock controls). A URL outside `baseUrl` fails as an unreachable host does (the promise
 * rejects with a TypeError); with `anyOrigin: true` every URL is the mock's. Browser-safe.
 * @example
 * const fetch = createDocprocFetch({ baseUrl: 'http://docproc.test', processingDelayMs: 0 });
 * const docproc = createDocprocClient({ baseUrl: 'http://docproc.test', apiKey: 'docproc-dev-key', fetch });
 * await fetch.controls.seed([{ status: 'failed', count: 3 }]);
 */
export function createDocprocFetch(options: DocprocMockOptions): DocprocFetch {
  const service = createInProcessService(options);
  const mockFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (!service.underBase(new URL(request.url))) {
      throw new TypeError(`fetch failed: the docproc mock answers only under ${service.base}, not ${request.url}`);
    }
    return abortable(request.signal, service.serve(request));
  };
  return Object.assign(mockFetch, { controls: service.controls, idle: service.idle, close: service.close });
}
