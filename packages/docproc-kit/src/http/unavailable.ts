import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '@docproc-kit/reference/http/problem.js';
import { requestIdOf } from '@docproc-kit/reference/http/request-id.js';
import { answerProblem } from './problem-answer.js';

/**
 * Answers a request the server will not handle with a `503 service_unavailable` problem the client can
 * act on: nothing was done, retry after `retryAfterS` seconds; then the connection closes. The body is
 * read first: an answer sent while the client is still writing would be lost to a reset when the
 * connection closes.
 * @example refuseUnavailable(req, res, 'The server is shutting down; nothing was done. Retry in 5 s.', 5);
 */
export function refuseUnavailable(req: IncomingMessage, res: ServerResponse, detail: string, retryAfterS: number): void {
  const error = new ApiError('service_unavailable', detail, { headers: { 'Retry-After': String(retryAfterS) } });
  const answer = () => answerProblem(req, res, error, { requestId: requestIdOf(req), close: true });
  req.resume();
  if (req.complete) answer();
  else req.once('end', answer);
}
