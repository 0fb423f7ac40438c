import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';

/** What readiness checked: each part `ok`, or why not. */
export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, string>;
}

/** The operator's endpoints: the paths they answer, without a key and out of the request log. */
export const OPS_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

const json = (res: ServerResponse, status: number, body: unknown, head: boolean) => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(head ? undefined : text);
};

/**
 * `GET /healthz` (the process answers: 200), `GET /readyz` (200 when `ready` finds the store and the
 * queue reachable, else 503 naming what is not) and, with `metrics`, `GET /metrics` (Prometheus' text
 * format). No key: a balancer or a scraper has none; none of them tells anything of a tenant. While the
 * server drains, every request, these included, is answered 503 before it gets here (see http/drain.ts).
 * Returns false for any other request, which the caller handles.
 * @example const ops = createOpsRoutes({ ready, metrics }); if (!ops(req, res)) app(req, res);
 */
export function createOpsRoutes({ ready, metrics }: { ready: () => Promise<ReadinessReport>; metrics?: Metrics }) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '/';
    // The API's paths start /a or /_: those are let through on one character.
    const first = url.charCodeAt(1);
    if (first !== 0x68 && first !== 0x72 && first !== 0x6d) return false;
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    if (path !== '/healthz' && path !== '/readyz' && (path !== '/metrics' || !metrics)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const head = req.method === 'HEAD';
    if (path === '/healthz') json(res, 200, { status: 'ok' }, head);
    else if (path === '/readyz') {
      void ready().then(
        (report) => json(res, report.ready ? 200 : 503, { status: report.ready ? 'ready' : 'unavailable', checks: report.checks }, head),
        (error: unknown) => json(res, 503, { status: 'unavailable', checks: { service: String(error) } }, head),
      );
    } else {
      void metrics!.expose().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
          res.end(head ? undefined : body);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    }
    return true;
  };
}
