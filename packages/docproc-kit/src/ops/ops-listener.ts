import { listen } from '../http/http-server.js';
import type { createOpsRoutes } from './ops-routes.js';

/**
 * The operator's endpoints (`/metrics`, `/healthz`, `/readyz`) alone on a port of their own
 * (`--metrics-port`), so a scraper needs no route to the API; anything else there is a plain 404.
 * @example const opsHttp = await listenOps(service.ops, { port: 9464, host: '127.0.0.1' });
 */
export function listenOps(ops: ReturnType<typeof createOpsRoutes>, where: { port: number; host: string }): ReturnType<typeof listen> {
  return listen((req, res) => {
    if (ops(req, res)) return;
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('Only /metrics, /healthz and /readyz are here.\n');
  }, where);
}
