import type { Logger } from 'pino';
import { type ListeningServer, listen } from '../http/http-server.js';
import type { ReferenceService } from '../server/service.js';
import type { ServeOptions } from './serve-options.js';
import { createServeService } from './serve-service.js';
import type { ServeSettings } from './serve-settings.js';

/** A `docproc serve` run once it listens: its service, the API's listener and, with --metrics-port, the operator's. */
export interface RunningServe {
  service: ReferenceService;
  http: ListeningServer;
  metricsHttp?: ListeningServer;
}

/**
 * Builds the service and listens with it; what was opened before a step that fails is closed again before the
 * error is thrown, so a refused start leaves no lock, connection or port behind.
 * @example const { http } = await startServe(options, settings, logger);
 */
export async function startServe(options: ServeOptions, settings: ServeSettings, logger: Logger): Promise<RunningServe> {
  // Loaded here, not at the top: every other command (and --help) would pay for the metrics and ops routes.
  const { createMetrics } = await import('../ops/metrics.js');
  const { listenOps } = await import('../ops/ops-listener.js');
  const metrics = createMetrics();
  const service = await createServeService(options, settings, { metrics, logger });
  const http = await listen(service.app, {
    port: options.port,
    host: options.host,
    timeouts: {
      headersTimeoutMs: options.headersTimeoutMs,
      requestTimeoutMs: Math.max(options.requestTimeoutMs, options.headersTimeoutMs),
    },
    maxConnections: options.maxConnections,
    maxConnectionsPerAddress: options.maxConnectionsPerAddress,
    lingering: { timeMs: options.lingeringTimeMs, timeoutMs: options.lingeringTimeoutMs, maxBytes: options.lingeringMaxBytes },
  }).catch(async (error: unknown) => {
    await service.close();
    throw error;
  });
  let metricsHttp: ListeningServer | undefined;
  if (options.metricsPort !== undefined) {
    metricsHttp = await listenOps(service.ops, { port: options.metricsPort, host: options.host }).catch(async (error: unknown) => {
      await http.close(0);
      await service.close();
      throw error;
    });
  }
  metrics.watch({ ...service.metricSources, connections: http.connections });
  return { service, http, metricsHttp };
}
