import type { Express } from 'express';
import type { Logger } from 'pino';
import { referenceRoutes } from '../http/docs/docs-routes.js';
import { errorHandler, notFound } from '../http/errors.js';
import { expressApi, type HandlesApi } from '../http/express-api.js';
import { createHttpFront } from '../http/http-front.js';
import type { UploadReceiver } from '../http/upload/multipart-receiver.js';

/** What the Express app is wired from; built by createReferenceService, or by hand in tests. */
export interface AppDeps {
  /** The reference service's API (see core.ts). */
  api: HandlesApi;
  /** Reads upload bodies (multer, to temp files). */
  receive: UploadReceiver;
  logger: Logger;
  /** Allowed browser origins; `['*']` allows any. */
  corsOrigins: string[];
  /** The public dev key, pre-filled in /docs when it is the accepted key. */
  prefillApiKey?: string;
}

/**
 * The reference server's Express app: the front (request id, log line, CORS), the API (the contract's
 * operations and the mock controls), the API reference, a 404 for everything else, and the one error
 * handler. It does not listen.
 * @example const app = createApp({ api, receive, logger, corsOrigins: ['*'] }); app.listen(4010, '127.0.0.1');
 */
export function createApp({ api, receive, logger, corsOrigins, prefillApiKey }: AppDeps): Express {
  const app = createHttpFront({ logger, corsOrigins });
  app.use(expressApi(api, receive));
  app.use(referenceRoutes({ prefillApiKey, controls: true }));
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
