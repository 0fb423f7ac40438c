import cors from 'cors';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { httpLogger } from './logging.js';
import { requestId } from './request-id.js';

/** What differs between the fronts: which browser origins, and which extra headers they may send and read. */
export interface HttpFrontOptions {
  logger: Logger;
  /** Allowed origins; `*` anywhere means any. */
  corsOrigins: readonly string[];
  extraAllowedHeaders?: string[];
  extraExposedHeaders?: string[];
}

/**
 * The Express app every docproc server starts from (the reference server and the mock): no framework
 * banner or ETags (polling must see fresh state), the simple query parser (a repeated parameter is an
 * array the validators refuse), then request ids first (so every response has one), the request log,
 * and CORS with `x-api-key` allowed and `X-Request-Id` exposed. It does not listen.
 * @example const app = createHttpFront({ logger, corsOrigins: ['*'] }); app.use(routes);
 */
export function createHttpFront({ logger, corsOrigins, extraAllowedHeaders = [], extraExposedHeaders = [] }: HttpFrontOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestId());
  app.use(httpLogger(logger));
  app.use(
    cors({
      origin: corsOrigins.includes('*') ? '*' : [...corsOrigins],
      methods: ['GET', 'HEAD', 'POST', 'PATCH', 'OPTIONS'],
      allowedHeaders: ['x-api-key', 'content-type', 'x-request-id', 'idempotency-key', ...extraAllowedHeaders],
      exposedHeaders: ['X-Request-Id', 'Allow', 'Idempotent-Replayed', ...extraExposedHeaders],
      maxAge: 600,
    }),
  );
  return app;
}
