/**
 * `@docproc-kit/msw` (also `docproc-kit/msw`): the reference service as MSW 2 request handlers, stateful and in memory, for frontend
 * tests (msw/node under vitest) and for pages (msw/browser's service worker). Browser-safe: nothing here
 * imports a Node module (a test bundles it for the browser and fails on any).
 * @example
 * import { setupServer } from 'msw/node';
 * import { createDocprocHandlers } from '@docproc-kit/msw';
 * const docproc = createDocprocHandlers({ baseUrl: 'http://docproc.test', processingDelayMs: 0 });
 * const server = setupServer(...docproc);
 * await docproc.controls.seed([{ status: 'completed', filename: 'report.pdf', content: 'Q3 revenue' }]);
 */
import { type HttpHandler, http } from 'msw';
import type { DocprocControls } from './controls.js';
import { createInProcessService, type DocprocMockOptions } from './in-process-service.js';

// Everything @docproc-kit/msw/fetch offers, so one import serves a test that uses both.
export * from './fetch.js';

/** MSW request handlers (spread them into `setupServer` / `setupWorker`), with the mock's controls. */
export type DocprocHandlers = HttpHandler[] & {
  /** The mock controls as functions (reset, seed, nextOutcome, faults, settings, requests). */
  controls: DocprocControls;
  /** Resolves once no processing run is waiting or in progress. */
  idle(): Promise<void>;
  /** Stops processing. */
  close(): Promise<void>;
};

/**
 * MSW 2 handlers answering the contract's paths (`/api/v1/...`) and the mock controls (`/_mock/...`) with
 * the reference service's own core: one handler for every method, so unknown paths are 404 and other
 * methods 405 problems, as on the server. Only under `baseUrl` (or on every origin with `anyOrigin: true`):
 * any other request is not theirs, and goes on to MSW's `onUnhandledRequest`.
 * @example const server = setupServer(...createDocprocHandlers({ baseUrl: 'https://docproc.example.com' }));
 */
export function createDocprocHandlers(options: DocprocMockOptions): DocprocHandlers {
  const service = createInProcessService(options);
  const handlers = [http.all(service.urlPattern, ({ request }) => service.serve(request))];
  return Object.assign(handlers, { controls: service.controls, idle: service.idle, close: service.close });
}
