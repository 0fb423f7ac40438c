import { type ApiRequest, contentTypeOf, type HandlesApi, problemResponse, unexpectedErrorResponse } from './exchange.js';
import { ApiError, invalidRequest } from './problem.js';
import { isSaneRequestId } from './request-id.js';
import { receiveFormData } from './upload/form-data-receiver.js';
import type { UploadLimits } from './upload/received-upload.js';

// As the Express front reads JSON bodies (express.json): at most 2 MB, an object or an array.
const JSON_LIMIT_BYTES = 2 * 1024 * 1024;

async function readJson(request: Request): Promise<unknown> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) return undefined;
  const text = await request.text();
  if (new TextEncoder().encode(text).length > JSON_LIMIT_BYTES) {
    throw invalidRequest([{ in: 'body', name: 'body', message: 'is too large' }], 'The request body is too large.');
  }
  if (text === '') return undefined;
  const invalid = () => invalidRequest([{ in: 'body', name: 'body', message: 'is not valid JSON' }], 'The request body is not valid JSON.');
  if (!/^\s*[[{]/.test(text)) throw invalid();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalid();
  }
}

function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/**
 * The API as a `fetch` function: a Fetch API request in, its answer out, with no port and no framework.
 * Request ids as the server gives them (a sane `X-Request-Id` echoed, else a new one); a path the API does
 * not own is a 404 problem. Browser-safe.
 * @example const fetch = fetchApi(api, { limits }); await fetch(new Request('http://mock/api/v1/documents/get_documents'));
 */
export function fetchApi(api: HandlesApi, { limits }: { limits: UploadLimits }): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const given = request.headers.get('x-request-id') ?? undefined;
    const requestId = isSaneRequestId(given) ? given : globalThis.crypto.randomUUID();
    const method = request.method.toUpperCase();
    const apiRequest: ApiRequest = {
      method,
      path: url.pathname,
      query: queryOf(url),
      header: (name) => request.headers.get(name) ?? undefined,
      requestId,
      signal: request.signal,
      receive: (options) => receiveFormData(request, limits, options),
      json: () => readJson(request),
    };
    const response = api.owns(url.pathname)
      ? await api.handle(apiRequest).catch(() => unexpectedErrorResponse(apiRequest))
      : problemResponse(new ApiError('not_found', `Nothing exists at ${method} ${url.pathname}.`), apiRequest);
    const headers = new Headers(response.headers);
    headers.set('X-Request-Id', requestId);
    if (response.body !== undefined) headers.set('Content-Type', contentTypeOf(response));
    return new Response(method === 'HEAD' || response.body === undefined ? null : response.body, { status: response.status, headers });
  };
}
