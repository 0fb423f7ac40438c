import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, problemOf } from '@docproc-kit/reference/http/problem.js';
import { requestIdOf } from '@docproc-kit/reference/http/request-id.js';

/**
 * Answers a request the server will not handle with a `503 service_unavailable` problem the client can
 * act on: nothing was done, retry after `retryAfterS` seconds; then the connection closes. The body is
 * read first: an answer sent while the client is still writing would be lost to a reset when the
 * connection closes.
 * @example refuseUnavailable(req, res, 'The server is shutting down; nothing was done. Retry in 5 s.', 5);
 */
export function refuseUnavailable(req: IncomingMessage, res: ServerResponse, detail: string, retryAfterS: number): void {
  const requestId = requestIdOf(req);
  const body = JSON.stringify(
    problemOf(new ApiError('service_unavailable', detail), { instance: (req.url ?? '/').split('?')[0]!, requestId }),
  );
  const answer = () => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(503, {
      'Content-Type': 'application/problem+json',
      'Content-Length': Buffer.byteLength(body),
      'Retry-After': String(retryAfterS),
      'X-Request-Id': requestId,
      Connection: 'close',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  req.resume();
  if (req.complete) answer();
  else req.once('end', answer);
}
