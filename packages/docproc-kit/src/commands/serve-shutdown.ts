import type { Logger } from 'pino';
import { ANSWER_WAIT_MS } from '../http/drain.js';
import { onShutdown } from '../lifecycle/shutdown.js';
import type { ServeOptions } from './serve-options.js';
import type { RunningServe } from './serve-start.js';

/**
 * On the first SIGINT or SIGTERM: the API stops taking requests (new ones are answered 503) and lets those in
 * flight finish within --shutdown-grace-ms, then the operator's port and the service close; a stop that hangs
 * past the grace, the answers' wait and 10 s more exits 1 anyway.
 */
export function stopServeOnSignal({ service, http, metricsHttp }: RunningServe, options: ServeOptions, logger: Logger): void {
  onShutdown({ name: 'docproc serve', deadlineMs: options.shutdownGraceMs + ANSWER_WAIT_MS + 10_000 }, async (signal) => {
    logger.info({ signal }, 'shutting down: new requests are answered 503, requests in flight finish');
    await http.close(options.shutdownGraceMs);
    await metricsHttp?.close(0);
    await service.close();
    logger.flush?.();
  });
}
