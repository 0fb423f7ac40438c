import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdOf } from '@docproc-kit/reference/http/request-id.js';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { createCors } from './cors.js';
import { createRequestLog, type ObserveRequest } from './logging.js';

declare module 'node:http' {
  interface IncomingMessage {
    /** This request's id, as sent back in `X-Request-Id` (set by the front, before anything else). */
    id: string;
  }
}

/** What differs between the fronts: which browser origins, and which extra headers they may send and read. */
export interface HttpFrontOptions {
  logger: Logger;
  /** Allowed origins; `*` anywhere means any. */
  corsOrigins: readonly string[];
  extraAllowedHeaders?: string[];
  extraExposedHeaders?: string[];
  /** Told of every answered request (the metrics). */
  observe?: ObserveRequest;
}

/** The front of one request: true when it answered the request itself (a CORS preflight). */
export type Front = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * What every request meets first, in one step, with no framework: an id (the client's when sane, else a
 * UUID) set as `X-Request-Id` before anything can answer, the request's log line (written when it
 * closes), and CORS (`x-api-key` allowed, `X-Request-Id` exposed; a preflight is answered 204 here,
 * without a key).
 * @example const front = createFront({ logger, corsOrigins: ['*'] }); if (!front(req, res)) route(req, res);
 */
export function createFront({ logger, corsOrigins, extraAllowedHeaders = [], extraExposedHeaders = [], observe }: HttpFrontOptions): Front {
  const cors = createCors({
    origins: corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'OPTIONS'],
    allowedHeaders: ['x-api-key', 'content-type', 'x-request-id', 'idempotency-key', ...extraAllowedHeaders],
    // Retry-After: a page's client can only honour the wait of a 429 or 503 it is allowed to read.
    exposedHeaders: ['X-Request-Id', 'Allow', 'Idempotent-Replayed', 'Retry-After', ...extraExposedHeaders],
    maxAgeS: 600,
  });
  const logRequest = createRequestLog(logger, observe);
  return (req, res) => {
    const id = requestIdOf(req);
    req.id = id;
    res.setHeader('X-Request-Id', id);
    logRequest(req, res);
    const answer = cors(req.method ?? 'GET', req.headers.origin, req.headers['access-control-request-method']);
    for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
    if (!answer.preflight) return false;
    res.writeHead(204, { 'Content-Length': '0' });
    res.end();
    return true;
  };
}

/**
 * An Express app for what is not on the hot path (the API reference, 404s, the mock's routes): no framework
 * banner or ETags (polling must see fresh state), the simple query parser (a repeated parameter is an array
 * the validators refuse). With `front`, every request meets it first; without, the caller ran it already.
 * @example const app = createHttpApp(createFront({ logger, corsOrigins: ['*'] })); app.use(routes);
 */
export function createHttpApp(front?: Front): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  if (front) app.use((req, res, next) => void (front(req, res) || next()));
  return app;
}
