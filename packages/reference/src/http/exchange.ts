import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import { ApiError, problemOf } from './problem.js';
import type { ReceivedUpload, ReceiveOptions } from './upload/received-upload.js';

/**
 * A request as the reference service's API sees it, whatever carried it: a Node HTTP request on a port, a
 * `fetch` call in a test, an intercepted request in a browser. Carriers (node-api.ts, fetch-api.ts)
 * build it; nothing in it is tied to a framework or to Node.
 */
export interface ApiRequest {
  /** Upper case. */
  method: string;
  /** The path as sent (still percent-encoded), without the query. */
  path: string;
  /** Query parameters; a repeated one is an array. */
  query: Record<string, string | string[]>;
  /** A header's value (names are case-insensitive); repeated headers joined with ", ". */
  header(name: string): string | undefined;
  /** This request's id, as sent back in `X-Request-Id`. */
  requestId: string;
  /** Reads an upload's multipart body (see ReceiveOptions); only the upload operation calls it. */
  receive(options: ReceiveOptions): Promise<ReceivedUpload>;
  /** Reads a JSON body: undefined when there is none or it is not `application/json`; an ApiError (400) when malformed. */
  json(): Promise<unknown>;
  /**
   * Aborted once nothing may be changed on this request's behalf any more: its client went away before
   * the answer, or the server's shutdown grace period ended (see http/request-lifetime.ts).
   */
  signal?: AbortSignal;
}

/** What a client is told to wait before retrying a request refused because the server is shutting down, in seconds. */
export const SHUTDOWN_RETRY_AFTER_S = 5;

/** An answer of the API, written by the adapter as it is (status, headers, a JSON body). */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** The body, already serialised (text, or its UTF-8 bytes); none for a HEAD request's answer or an empty one. */
  body?: string | Uint8Array<ArrayBuffer>;
  /** The media type of `body`: one the contract's responses name (`BUNDLED.mediaTypes`). */
  contentType?: string;
  /** The caller's tenant, when the key was accepted (for the request log; never sent). */
  tenant?: string;
  /** The contract's operationId, `controls` or `unknown` (for the metrics; never sent). */
  operation?: string;
}

/**
 * The Content-Type header of an answer's body: its media type (one the contract's responses name), in UTF-8;
 * what every carrier writes.
 * @example contentTypeOf(jsonResponse(200, '{}')) // 'application/json; charset=utf-8'
 */
export function contentTypeOf(response: ApiResponse): string {
  return `${response.contentType ?? BUNDLED.mediaTypes.json}; charset=utf-8`;
}

/** A JSON answer. */
export function jsonResponse(status: number, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers, body, contentType: BUNDLED.mediaTypes.json };
}

/** The problem+json answer of an error to this request. */
export function problemResponse(error: ApiError, request: { path: string; requestId?: string }): ApiResponse {
  const problem = problemOf(error, { instance: request.path, requestId: request.requestId });
  return {
    status: error.status,
    headers: { ...error.extra.headers },
    body: JSON.stringify(problem),
    contentType: BUNDLED.mediaTypes.problem,
  };
}

/**
 * The answer to a request whose handling threw what nobody expected: a 500 `internal_error` problem that
 * says nothing of the error (the carrier logs it). Every carrier's fallback, and what the journal shows.
 * @example api.handle(request).catch(() => unexpectedErrorResponse(request))
 */
export function unexpectedErrorResponse(request: { path: string; requestId?: string }): ApiResponse {
  return problemResponse(new ApiError('internal_error'), request);
}

/** An API as the carriers hand requests to it (see api/reference-api.ts). */
export interface HandlesApi {
  owns(path: string): boolean;
  handle(request: ApiRequest): Promise<ApiResponse>;
}
