import type { components, paths } from './generated/openapi.js';

/** The generated path types of the contract, for callers who use openapi-fetch directly. */
export type { components, paths };

/** A document with its extracted text, as `getDocument` returns it. */
export type Document = components['schemas']['Document'];
/** A document as lists return it (no `content`). */
export type DocumentSummary = components['schemas']['DocumentSummary'];
/** One page of documents with pagination totals. */
export type DocumentList = components['schemas']['DocumentList'];
/** The body of a successful upload: one document per file, in order. */
export type UploadResult = components['schemas']['UploadResult'];
/** processing | completed | failed. */
export type DocumentStatus = components['schemas']['DocumentStatus'];
/** An RFC 9457 problem as the service sends it. */
export type Problem = components['schemas']['Problem'];
/** Query parameters of `listDocuments`. */
export type ListQuery = NonNullable<paths['/api/v1/documents/get_documents']['get']['parameters']['query']>;

/**
 * What the client reports when a response was an error but not a problem document (a proxy's HTML
 * page, say): the same shape as a problem, so callers handle one type, with a code of its own.
 */
export interface UnexpectedResponse {
  type: 'about:blank';
  title: string;
  status: number;
  detail: string;
  code: 'unexpected_response';
}

/** Every error the client returns: the server's problem, or an unexpected non-problem response. */
export type ClientError = Problem | UnexpectedResponse;

/** The outcome of one call: `data` on success, a typed `error` otherwise, and the raw response. */
export type Result<T> = { data: T; error?: undefined; response: Response } | { data?: undefined; error: ClientError; response: Response };

/**
 * A file to upload: a `File` (its name is used), a `Blob` plus a name, or raw bytes plus a name
 * (in Node, a `Buffer` is a `Uint8Array`).
 * @example { name: 'résumé.pdf', data: await readFile('résumé.pdf') }
 */
export type UploadFile = File | { name: string; data: Blob | ArrayBuffer | Uint8Array; type?: string };
