import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApiRequest, type ApiResponse, type HandlesApi, problemResponse } from '@docproc-kit/reference/http/exchange.js';
import { ApiError } from '@docproc-kit/reference/http/problem.js';
import express from 'express';
import type { Logger } from 'pino';
import { fromHttpError } from './errors.js';
import { parseQueryString } from './query-string.js';
import { requestSignal } from './request-lifetime.js';
import { requestState } from './request-state.js';
import type { UploadReceiver } from './upload/multipart-receiver.js';

const MEDIA_TYPES = {
  'application/json': 'application/json; charset=utf-8',
  'application/problem+json': 'application/problem+json; charset=utf-8',
};
// Large enough for a seed of a thousand documents with some text each.
const JSON_LIMIT = '2mb';

function send(req: IncomingMessage, res: ServerResponse, response: ApiResponse): void {
  // Answered already (a dripping upload cut with a 408 while it was being read): nothing more to say.
  if (res.headersSent) return;
  const { headers } = response;
  for (const name in headers) res.setHeader(name, headers[name]!);
  if (response.tenant !== undefined || response.operation !== undefined) {
    const state = requestState(res);
    state.tenant = response.tenant;
    state.operation = response.operation;
  }
  if (response.body === undefined) {
    res.writeHead(response.status);
    res.end();
    return;
  }
  res.writeHead(response.status, {
    'Content-Type': MEDIA_TYPES[response.contentType ?? 'application/json'],
    'Content-Length': typeof response.body === 'string' ? Buffer.byteLength(response.body) : response.body.byteLength,
  });
  // Node sends no body for a HEAD request, only its length.
  res.end(req.method === 'HEAD' ? undefined : response.body);
}

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
      (response) => send(req, res, response),
      (err: unknown) => {
        logger.error({ err, requestId: req.id }, 'unexpected error');
        // Once headers are out, only dropping the connection can end the response.
        if (res.headersSent) return void res.destroy();
        send(req, res, { ...problemResponse(new ApiError('internal_error'), request), headers: {} });
      },
    );
  };
}
