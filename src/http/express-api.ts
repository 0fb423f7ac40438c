import express, { type Request, type RequestHandler, type Response } from 'express';
import { fromHttpError } from './errors.js';
import type { ApiRequest, ApiResponse } from './exchange.js';
import { requestState } from './request-state.js';
import type { UploadReceiver } from './upload/multipart-receiver.js';

/** An API as the adapter carries requests to it (see reference/api/reference-api.ts). */
export interface HandlesApi {
  owns(path: string): boolean;
  handle(request: ApiRequest): Promise<ApiResponse>;
}

const MEDIA_TYPES = {
  'application/json': 'application/json; charset=utf-8',
  'application/problem+json': 'application/problem+json; charset=utf-8',
};
// Large enough for a seed of a thousand documents with some text each.
const JSON_LIMIT = '2mb';

function send(req: Request, res: Response, response: ApiResponse): void {
  // Answered already (a dripping upload cut with a 408 while it was being read): nothing more to say.
  if (res.headersSent) return;
  res.statusCode = response.status;
  const { headers } = response;
  for (const name in headers) res.setHeader(name, headers[name]!);
  if (response.tenant !== undefined) requestState(res).tenant = response.tenant;
  if (response.body === undefined) {
    res.end();
    return;
  }
  res.setHeader('Content-Type', MEDIA_TYPES[response.contentType ?? 'application/json']);
  res.setHeader('Content-Length', Buffer.byteLength(response.body));
  // Node sends no body for a HEAD request, only its length.
  res.end(req.method === 'HEAD' ? undefined : response.body);
}

/**
 * Carries the requests an API owns from Express to it and writes its answers as they are; other paths go
 * on to the next handler. Uploads are read by `receive` (multer, to temp files), JSON bodies by
 * body-parser (malformed or too large: a 400 problem).
 * @example app.use(expressApi(api, createUploadReceiver(tmpDir, limits)));
 */
export function expressApi(api: HandlesApi, receive: UploadReceiver): RequestHandler {
  const parseJson = express.json({ limit: JSON_LIMIT, strict: true });
  return (req, res, next) => {
    const path = req.url.split('?', 1)[0]!;
    if (!api.owns(path)) return next();
    const request: ApiRequest = {
      method: req.method,
      path,
      query: req.query as Record<string, string | string[]>,
      header(name) {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      requestId: req.id,
      receive: (options) => receive(req, res, options),
      json: () =>
        new Promise((resolve, reject) =>
          parseJson(req, res, (err?: unknown) => (err ? reject((err instanceof Error && fromHttpError(err)) || err) : resolve(req.body))),
        ),
    };
    api.handle(request).then((response) => send(req, res, response), next);
  };
}
