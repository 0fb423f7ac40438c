import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApiResponse, contentTypeOf } from '@docproc-kit/reference/http/exchange.js';
import { requestState } from './request-state.js';

/** Writes an answer of the API on Node's response as it is: status, headers, the body with its media type and length. */
export function writeApiResponse(req: IncomingMessage, res: ServerResponse, response: ApiResponse): void {
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
    'Content-Type': contentTypeOf(response),
    'Content-Length': typeof response.body === 'string' ? Buffer.byteLength(response.body) : response.body.byteLength,
  });
  // Node sends no body for a HEAD request, only its length.
  res.end(req.method === 'HEAD' ? undefined : response.body);
}
