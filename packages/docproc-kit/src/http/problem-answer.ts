import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import { contentTypeOf, problemResponse } from '@docproc-kit/reference/http/exchange.js';
import { ApiError, problemOf } from '@docproc-kit/reference/http/problem.js';
import { writeApiResponse } from './write-response.js';

// Every problem the Node front answers outside the API (a shutdown, a connection cap, a dripping upload, an
// unsupported Expect, Express's own errors, a request that is not HTTP) is rendered here: on a response, as
// the API renders its own; on a bare socket, as a whole HTTP/1.1 message.

/**
 * An `invalid_request` under the status HTTP gives it (408, 417, 431; 400 for malformed HTTP).
 * @example answerProblem(req, res, protocolError(408, 'The upload arrived too slowly.'), { requestId, close: true });
 */
export function protocolError(status: number, detail: string): ApiError {
  return new ApiError('invalid_request', detail, { status: { status, title: STATUS_CODES[status] ?? 'Bad Request' } });
}

/**
 * Answers `error` as a problem (its status, headers, `X-Request-Id`); with `close`, the connection closes
 * after it. Nothing is written once the headers are out.
 * @example answerProblem(req, res, new ApiError('service_unavailable', detail, { headers: { 'Retry-After': '5' } }), { requestId, close: true });
 */
export function answerProblem(
  req: IncomingMessage & { originalUrl?: string },
  res: ServerResponse,
  error: ApiError,
  { requestId, close = false }: { requestId: string | undefined; close?: boolean },
): void {
  if (res.headersSent || res.destroyed) return;
  const response = problemResponse(error, { path: (req.originalUrl ?? req.url ?? '/').split('?')[0]!, requestId });
  const headers = { ...response.headers, ...(requestId ? { 'X-Request-Id': requestId } : {}), ...(close ? { Connection: 'close' } : {}) };
  writeApiResponse(req, res, { ...response, headers });
}

// The Content-Type of a problem as every carrier writes it: the contract's problem media type, in UTF-8.
const PROBLEM_CONTENT_TYPE = contentTypeOf({ status: 500, headers: {}, contentType: BUNDLED.mediaTypes.problem });

/**
 * The whole HTTP/1.1 answer of `error` for a socket no request was read from (its path unknown); it says
 * the connection closes.
 * @example socket.end(rawProblemAnswer(protocolError(431, 'The request headers are too large.'), randomUUID()));
 */
export function rawProblemAnswer(error: ApiError, requestId: string): string {
  const body = JSON.stringify(problemOf(error, { requestId }));
  return (
    `HTTP/1.1 ${error.status} ${error.title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`
  );
}
