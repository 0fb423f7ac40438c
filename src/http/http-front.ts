import { randomUUID } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { createCors } from './cors.js';
import { logRequest } from './logging.js';
import { isSaneRequestId } from './request-id.js';

/** What differs between the fronts: which browser origins, and which extra headers they may send and read. */
export interface HttpFrontOptions {
  logger: Logger;
  /** Allowed origins; `*` anywhere means any. */
  corsOrigins: readonly string[];
  extraAllowedHeaders?: string[];
  extraExposedHeaders?: string[];
}

declare module 'express-serve-static-core' {
  interface Request {
    /** This request's id, as sent back in `X-Request-Id` (set by the front). */
    id: string;
  }
}

/**
 * What every request meets first, in one layer: an id (the client's when sane, else a UUID) set as
 * `X-Request-Id` before anything can answer, the request's log line (written when it closes), and CORS
 * (`x-api-key` allowed, `X-Request-Id` exposed; a preflight is answered 204 here, without a key).
 */
function front({ logger, corsOrigins, extraAllowedHeaders = [], extraExposedHeaders = [] }: HttpFrontOptions): RequestHandler {
  const cors = createCors({
    origins: corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'OPTIONS'],
    allowedHeaders: ['x-api-key', 'content-type', 'x-request-id', 'idempotency-key', ...extraAllowedHeaders],
    // Retry-After: a page's client can only honour the wait of a 429 or 503 it is allowed to read.
    exposedHeaders: ['X-Request-Id', 'Allow', 'Idempotent-Replayed', 'Retry-After', ...extraExposedHeaders],
    maxAgeS: 600,
  });
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && isSaneRequestId(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    logRequest(logger, req, res);
    const {
      headers: { origin },
      method,
    } = req;
    const answer = cors(method, origin, req.headers['access-control-request-method']);
    for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
    if (answer.preflight) {
      res.statusCode = 204;
      res.setHeader('Content-Length', '0');
      res.end();
      return;
    }
    next();
  };
}

/**
 * The Express app every docproc server starts from (the reference server and the mock): no framework
 * banner or ETags (polling must see fresh state), the simple query parser (a repeated parameter is an
 * array the validators refuse), then the front (request id, log line, CORS). It does not listen.
 * @example const app = createHttpFront({ logger, corsOrigins: ['*'] }); app.use(routes);
 */
export function createHttpFront(options: HttpFrontOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(front(options));
  return app;
}
