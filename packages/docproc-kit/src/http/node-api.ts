import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApiRequest, type HandlesApi, unexpectedErrorResponse } from '@docproc-kit/reference/http/exchange.js';
import express from 'express';
import type { Logger } from 'pino';
import { fromHttpError } from './errors.js';
import { parseQueryString } from './query-string.js';
import { requestSignal } from './request-lifetime.js';
import type { UploadReceiver } from './upload/multipart-receiver.js';
import { writeApiResponse } from './write-response.js';

// Large enough for a seed of a thousand documents with some text each.
const JSON_LIMIT = '2mb';

/**
 * Carries requests from Node's HTTP server to an API and writes its answers as they are, with no framework
 * in between: the hot path. Uploads are read by `receive` (multer, to temp files), JSON bodies by
 * body-parser (malformed or too large: a 400 problem); anything the API throws that is not a contract
 * error is logged and answered 500 without internals.
 * @example const handle = nodeApi(api, receive, logger); if (api.owns(path)) handle(req, res, path);
 */
export function nodeApi(api: HandlesApi, receive: UploadReceiver, logger: Logger) {
  const parseJson = express.json({ limit: JSON_LIMIT, strict: true });
  return (req: IncomingMessage, res: ServerResponse, path: string): void => {
    const at = req.url!.indexOf('?');
    const request: ApiRequest = {
      method: req.method!,
      path,
      query: at < 0 ? {} : parseQueryString(req.url!.slice(at + 1)),
      header(name) {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      requestId: req.id,
      // A getter: only an upload asks, so a list or a read makes no AbortController.
      get signal() {
        return requestSignal(req, res);
      },
      receive: (options) => receive(req, res, options),
      json: () =>
        new Promise((resolve, reject) =>
          parseJson(req as express.Request, res as express.Response, (err?: unknown) =>
            err ? reject((err instanceof Error && fromHttpError(err)) || err) : resolve((req as express.Request).body),
          ),
        ),
    };
    api.handle(request).then(
      (response) => writeApiResponse(req, res, response),
      (err: unknown) => {
        logger.error({ err, requestId: req.id }, 'unexpected error');
        // Once headers are out, only dropping the connection can end the response.
        if (res.headersSent) return void res.destroy();
        writeApiResponse(req, res, unexpectedErrorResponse(request));
      },
    );
  };
}
