import createClient, { type Client } from 'openapi-fetch';
import { createBackoff, sleep } from './backoff.js';
import type { ClientError, Document, DocumentList, DocumentSummary, ListQuery, paths, Result, UploadFile, UploadResult } from './types.js';

/** Options of {@link createDocprocClient}. */
export interface DocprocClientOptions {
  /** The service's base_url, as in the contract's `servers` (no `/api/v1`: the paths carry it). */
  baseUrl: string;
  /** Sent as `x-api-key` on every request. */
  apiKey: string;
  /** A fetch implementation (defaults to the global one); handy for tests, proxies and retries. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers for every request, e.g. a fixed `X-Request-Id` prefix for tracing. */
  headers?: Record<string, string>;
}

/** Options of `waitForDocument`. */
export interface WaitOptions {
  /** Give up after this long (default 60 s) with a {@link WaitTimeoutError}. */
  timeoutMs?: number;
  /** Stops waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /** First polling interval (default 200 ms); it grows by half each time up to 2 s. */
  initialIntervalMs?: number;
}

/** Thrown by `waitForDocument` when the document is still `processing` at the deadline. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(
    readonly documentId: number,
    readonly last: Document,
    readonly timeoutMs: number,
  ) {
    super(`document ${documentId} was still ${last.status} after ${timeoutMs} ms`);
  }
}

/** Thrown by `iterateDocuments`, which cannot return a result per page: the page's error as a value. */
export class DocprocProblemError extends Error {
  override readonly name = 'DocprocProblemError';
  constructor(
    readonly problem: ClientError,
    readonly response: Response,
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
  }
}

const UPLOAD = '/api/v1/documents/upload_files';
const LIST = '/api/v1/documents/get_documents';
const GET = '/api/v1/documents/get_document/{document_id}';
const RETRY = '/api/v1/documents/retry_documents/{document_id}';

function toBlobAndName(file: UploadFile): [Blob, string] {
  if (typeof File !== 'undefined' && file instanceof File) return [file, file.name];
  const { name, data, type } = file as Exclude<UploadFile, File>;
  const blob = data instanceof Blob ? data : new Blob([data as Uint8Array<ArrayBuffer>], type ? { type } : {});
  return [blob, name];
}

/** Turns openapi-fetch's `{ data, error, response }` into a {@link Result} whose error is always typed. */
async function settle<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Result<T>> {
  const { data, error, response } = await call;
  if (response.ok) return { data: data as T, response };
  const isProblem = typeof error === 'object' && error !== null && 'code' in error && 'status' in error;
  if (isProblem) return { error: error as ClientError, response };
  return {
    error: {
      type: 'about:blank',
      title: response.statusText || 'Unexpected response',
      status: response.status,
      detail: typeof error === 'string' ? error.slice(0, 500) : `HTTP ${response.status} without a problem body`,
      code: 'unexpected_response',
    },
    response,
  };
}

/**
 * A typed client for the Document Processing Service, over openapi-fetch. Browser-safe.
 * Every call resolves to `{ data }` or `{ error }` (a typed problem); only network failures throw.
 * @example
 * const docproc = createDocprocClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'docproc-dev-key' });
 * const { data, error } = await docproc.uploadDocuments([file]);
 * if (data) console.log(await docproc.waitForDocument(data.documents[0].document_id));
 */
export function createDocprocClient(options: DocprocClientOptions) {
  const api: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.fetch,
    headers: { ...options.headers, 'x-api-key': options.apiKey },
  });

  const getDocument = (documentId: number, init?: { signal?: AbortSignal }): Promise<Result<Document>> =>
    settle(api.GET(GET, { params: { path: { document_id: documentId } }, signal: init?.signal }));

  return {
    /** The underlying openapi-fetch client, typed from the contract, for anything not wrapped here. */
    api,

    /**
     * Uploads files as repeated `files[]` parts; all are accepted (202) or none is. Pass an
     * `idempotencyKey` (one per logical upload) to make retrying the call after a network error safe.
     */
    uploadDocuments(
      files: UploadFile[],
      init?: { signal?: AbortSignal; headers?: Record<string, string>; idempotencyKey?: string },
    ): Promise<Result<UploadResult>> {
      const parts = files.map(toBlobAndName);
      return settle(
        api.POST(UPLOAD, {
          params: { header: init?.idempotencyKey ? { 'Idempotency-Key': init.idempotencyKey } : {} },
          body: { 'files[]': parts.map(([blob]) => blob) },
          // openapi-fetch serializes bodies as JSON by default; multipart needs FormData (and no
          // explicit Content-Type, so fetch writes the boundary).
          bodySerializer: () => {
            const form = new FormData();
            for (const [blob, name] of parts) form.append('files[]', blob, name);
            return form;
          },
          headers: init?.headers,
          signal: init?.signal,
        }),
      );
    },

    /** One page of documents (page 1, 20 per page unless asked otherwise). */
    listDocuments(query: ListQuery = {}, init?: { signal?: AbortSignal }): Promise<Result<DocumentList>> {
      return settle(api.GET(LIST, { params: { query }, signal: init?.signal }));
    },

    /** One document with its extracted text. */
    getDocument,

    /** Starts processing again on a completed or failed document (409 while processing). */
    retryDocument(documentId: number, init?: { signal?: AbortSignal }): Promise<Result<Document>> {
      return settle(api.POST(RETRY, { params: { path: { document_id: documentId } }, signal: init?.signal }));
    },

    /**
     * Polls a document, backing off, until it is `completed` or `failed`; resolves with the last read
     * (or its error, e.g. a 404). Rejects with {@link WaitTimeoutError} at the deadline.
     */
    async waitForDocument(documentId: number, { timeoutMs = 60_000, signal, initialIntervalMs = 200 }: WaitOptions = {}) {
      const deadline = Date.now() + timeoutMs;
      const backoff = createBackoff({ initialMs: initialIntervalMs, maxMs: 2_000 });
      for (;;) {
        signal?.throwIfAborted();
        const result = await getDocument(documentId, { signal });
        if (result.error || result.data.status !== 'processing') return result;
        const left = deadline - Date.now();
        if (left <= 0) throw new WaitTimeoutError(documentId, result.data, timeoutMs);
        await sleep(Math.min(backoff.next(), left), signal);
      }
    },

    /**
     * Every document matching the query, page after page (`page` in the query is where to start).
     * Throws {@link DocprocProblemError} if a page cannot be read.
     */
    async *iterateDocuments(
      query: Omit<ListQuery, 'page'> & { page?: number } = {},
      init?: { signal?: AbortSignal },
    ): AsyncGenerator<DocumentSummary> {
      for (let page = query.page ?? 1; ; page++) {
        const result = await settle(api.GET(LIST, { params: { query: { ...query, page } }, signal: init?.signal }));
        if (result.error) throw new DocprocProblemError(result.error, result.response);
        yield* result.data.documents;
        if (page >= result.data.pagination.total_pages) return;
      }
    },
  };
}

/** The client returned by {@link createDocprocClient}. */
export type DocprocClient = ReturnType<typeof createDocprocClient>;
