import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { HandlesApi } from '@docproc-kit/reference/http/exchange.js';
import type { Logger } from 'pino';
import { referenceRoutes } from '../http/docs/docs-routes.js';
import { errorHandler, notFound } from '../http/errors.js';
import { createFront, createHttpApp } from '../http/http-front.js';
import type { ObserveRequest } from '../http/logging.js';
import { nodeApi } from '../http/node-api.js';
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
  /** The operator's endpoints (`/healthz`, `/readyz`, `/metrics`: see ops/ops-routes.ts), answered before anything else: true when it answered. */
  ops?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Told of every other answered request (the metrics). */
  observe?: ObserveRequest;
}

/**
 * The reference server's request handler: the operator's endpoints, then the front (request id, log line, CORS), then the API
 * (the contract's operations and the mock controls) straight from Node's HTTP server; everything else
 * (the API reference, 404s) through Express. It does not listen.
 * @example const handler = createApp({ api, receive, logger, corsOrigins: ['*'] }); await listen(handler, { port: 4010, host });
 */
export function createApp({ api, receive, logger, corsOrigins, prefillApiKey, ops, observe }: AppDeps): RequestListener {
  const front = createFront({ logger, corsOrigins, observe });
  const handleApi = nodeApi(api, receive, logger);
  const rest = createHttpApp();
  rest.use(referenceRoutes({ prefillApiKey, controls: true }));
  rest.use(notFound);
  rest.use(errorHandler(logger));
  return (req, res) => {
    // Probes and scrapes: no request id, no log line, no metrics of their own.
    if (ops?.(req, res)) return;
    if (front(req, res)) return;
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    if (api.owns(path)) handleApi(req, res, path);
    else rest(req, res);
  };
}
