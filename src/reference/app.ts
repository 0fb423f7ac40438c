import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { referenceRoutes } from '../http/docs/docs-routes.js';
import { errorHandler, notFound } from '../http/errors.js';
import { createFront, createHttpApp } from '../http/http-front.js';
import { type HandlesApi, nodeApi } from '../http/node-api.js';
import type { UploadReceiver } from '../http/upload/multipart-receiver.js';

/** What the server's request handler is wired from; built by createReferenceService, or by hand in tests. */
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
 * The reference server's request handler: the front (request id, log line, CORS) first, then the API
 * (the contract's operations and the mock controls) straight from Node's HTTP server; everything else
 * (the API reference, 404s) through Express. It does not listen.
 * @example const handler = createApp({ api, receive, logger, corsOrigins: ['*'] }); await listen(handler, { port: 4010, host });
 */
export function createApp({ api, receive, logger, corsOrigins, prefillApiKey }: AppDeps): RequestListener {
  const front = createFront({ logger, corsOrigins });
  const handleApi = nodeApi(api, receive, logger);
  const rest = createHttpApp();
  rest.use(referenceRoutes({ prefillApiKey, controls: true }));
  rest.use(notFound);
  rest.use(errorHandler(logger));
  return (req, res) => {
    if (front(req, res)) return;
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    if (api.owns(path)) handleApi(req, res, path);
    else rest(req, res);
  };
}
