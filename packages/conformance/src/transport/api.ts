import type { components } from '@docproc-kit/contract/generated/openapi.js';
import type { Exchange, FilePart, KeyChoice } from '../definitions/exchange.js';
import type { AnswerJudge, Http, QueryInput, SendOptions } from './http.js';

/** A document as read from the wire: a list summary, or a full document with `content`. */
export type WireDocument = components['schemas']['DocumentFields'] & { content?: string | null };
/** A full document (with `content`) as read from the wire. */
export type WireFullDocument = components['schemas']['Document'];
/** A list page as read from the wire. */
export type WireList = components['schemas']['DocumentList'];

type Extra = Omit<SendOptions, 'operation' | 'params' | 'query' | 'body' | 'key'>;

/** The four operations over the recording layer; every call returns the checked exchange. */
export interface Api<J extends AnswerJudge = AnswerJudge> {
  /** The judge of the file this API belongs to (waits and helpers record their verdicts there). */
  readonly judge: J;
  /** An upload of file parts; `beyondLimits` sends one the deployment's limits forbid, on purpose. */
  upload(parts: FilePart[], extra?: Extra & { beyondLimits?: boolean }): Promise<Exchange>;
  /** An upload whose body is exact bytes (hand-built or hostile multipart). */
  uploadRaw(data: Uint8Array, contentType: string | undefined, extra?: Extra): Promise<Exchange>;
  list(query?: QueryInput, extra?: Extra & { rawQuery?: string }): Promise<Exchange>;
  get(id: number | string, extra?: Extra): Promise<Exchange>;
  retry(id: number | string, extra?: Extra): Promise<Exchange>;
}

/**
 * Binds the operations of the contract to one key choice.
 * @example const exchange = await createApi(http).list({ limit: 5 });
 */
export function createApi<J extends AnswerJudge>(http: Http<J>, key: KeyChoice = 'primary'): Api<J> {
  return {
    judge: http.judge,
    upload: (parts, { beyondLimits: _, ...extra } = {}) =>
      http.send({ ...extra, operation: 'uploadDocuments', key, body: { kind: 'files', parts } }),
    uploadRaw: (data, contentType, extra) =>
      http.send({
        ...extra,
        operation: 'uploadDocuments',
        key,
        body: { kind: 'raw', data, ...(contentType !== undefined ? { contentType } : {}) },
      }),
    list: (query, extra) => http.send({ ...extra, operation: 'listDocuments', key, ...(query ? { query } : {}) }),
    get: (id, extra) => http.send({ ...extra, operation: 'getDocument', key, params: { document_id: id } }),
    retry: (id, extra) => http.send({ ...extra, operation: 'retryDocument', key, params: { document_id: id } }),
  };
}

/** The documents of a 202 upload body (empty for anything else). */
export function uploaded(exchange: Exchange): WireFullDocument[] {
  const docs = (exchange.json as { documents?: unknown } | undefined)?.documents;
  return exchange.status === 202 && Array.isArray(docs) ? (docs as WireFullDocument[]) : [];
}

/** The body of a 200 list (checked against the schema already). */
export function listed(exchange: Exchange): WireList {
  return exchange.json as WireList;
}

/** The body of a document response. */
export function documentOf(exchange: Exchange): WireFullDocument {
  return exchange.json as WireFullDocument;
}

/** Ids of listed or uploaded documents. */
export function idsOf(docs: Array<Pick<WireDocument, 'document_id'>>): number[] {
  return docs.map((d) => d.document_id);
}

/** The documents a 2xx body carries: the `documents` of a list or upload, or the body itself. */
export function documentsIn(body: unknown): WireDocument[] {
  if (typeof body !== 'object' || body === null) return [];
  const docs = (body as { documents?: unknown }).documents;
  if (Array.isArray(docs)) return docs.filter((d): d is WireDocument => typeof d === 'object' && d !== null);
  return 'document_id' in body && 'status' in body ? [body as WireDocument] : [];
}

/** The `code` of a problem body, or undefined when the body has none (not JSON, not an object). */
export function problemCode(exchange: Exchange): unknown {
  return codeOf(exchange.json);
}

/** The `code` of a parsed body, when it is an object that has one. */
export function codeOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
}
