import { ApiError, invalidRequest } from '@docproc-kit/reference/http/problem.js';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { answerProblem } from './problem-answer.js';

/** Sends an error as `application/problem+json`. */
export function sendProblem(error: ApiError, req: Request, res: Response): void {
  const requestId = res.getHeader('x-request-id');
  answerProblem(req, res, error, { requestId: typeof requestId === 'string' ? requestId : undefined });
}

/**
 * A handler for a known path hit with another method: 405 with `Allow`.
 * @example router.route('/x').get(handler).all(methodNotAllowed(['GET', 'HEAD']));
 */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  const allow = allowed.join(', ');
  return (req) => {
    throw new ApiError('method_not_allowed', `${req.method} is not supported here; use ${allowed[0]}.`, { headers: { Allow: allow } });
  };
}

/** The last route: everything nobody answered is a 404 problem. */
export const notFound: RequestHandler = (req) => {
  throw new ApiError('not_found', `Nothing exists at ${req.method} ${req.originalUrl.split('?')[0]}.`);
};

interface HttpishError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  expose?: unknown;
}

/**
 * The problem of an error raised by Express itself or body-parser, which carry a status: the 4xx ones
 * describe the request; anything else is undefined (a 500 for the caller).
 */
export function fromHttpError(err: HttpishError & Error): ApiError | undefined {
  const status = typeof err.status === 'number' ? err.status : typeof err.statusCode === 'number' ? err.statusCode : undefined;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  if (err.type === 'entity.parse.failed') {
    return invalidRequest([{ in: 'body', name: 'body', message: 'is not valid JSON' }], 'The request body is not valid JSON.');
  }
  if (err.type === 'entity.too.large') {
    return invalidRequest([{ in: 'body', name: 'body', message: 'is too large' }], 'The request body is too large.');
  }
  const message = err.expose === true ? err.message : 'is not valid';
  return invalidRequest(
    [{ in: err.type === undefined ? 'path' : 'body', name: 'request', message }],
    `The request is invalid: ${message}.`,
  );
}

/**
 * The single error handler: every error becomes a problem document; unexpected ones are logged
 * with their stack and answered 500 without it.
 * @example app.use(errorHandler(logger));
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    const known = err instanceof ApiError ? err : err instanceof Error ? fromHttpError(err) : undefined;
    const error = known ?? new ApiError('internal_error');
    if (!known) logger.error({ err, requestId: req.id }, 'unexpected error');
    // Once headers are out, only Express can end the response (it drops the connection).
    if (res.headersSent) return next(err);
    sendProblem(error, req, res);
  };
}
