import createClient, { type Client } from 'openapi-fetch';
import { createBackoff, sleep } from './backoff.js';
import { type Attempt, NOTHING_CHANGED, type RetryOptions, retryAfterMs, retryPolicy, settled, TRANSIENT, withRetry } from './retry.js';
import type { ClientError, Document, DocumentList, DocumentSummary, ListQuery, paths, Result, UploadFile, UploadResult } from './types.js';

/** Options of {@link createDocprocClient}. */
export interface DocprocClientOptions {
  /** The service's base_url, as in the contract's `servers` (no `/api/v1`: the paths carry it). */
  baseUrl: string;
  /** Sent as `x-api-key` on every request. */
  apiKey: string;
  /** A fetch implementation (defaults to the global one); handy for tests (createDocprocFetch) and proxies. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers for every request, e.g. a fixed `X-Request-Id` prefix for tracing. */
  headers?: Record<string, string>;
  /**
   * Try again after transient failures (off by default; `true` is `{ attempts: 3, maxDelayMs: 10000 }`):
   * exponential backoff with jitter, never sooner than a 429's or 503's `Retry-After`. Reads (list, get)
   * are repeated after network errors and 408/429/5xx. Uploads too, always under an `Idempotency-Key` (the
   * client makes one per call unless you give one), so an upload whose answer was lost is replayed by the
   * server, never stored twice. `retryDocument` is repeated only after 429/503, which change nothing; after
   * a lost answer (or a 5xx) it reads the document instead and resolves with it if it is `processing`.
   */
  retry?: RetryOptions | boolean;
}

/** Per-call options every method takes. */
export interface CallOptions {
  /** Aborts the call (and its retries): it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra headers for this call only (e.g. `Prefer: code=404` for `docproc mock`). */
  headers?: Record<string, string>;
}

/** Options of `uploadDocuments`. */
export interface UploadOptions extends CallOptions {
  /** One per logical upload; makes repeating the call safe (with `retry` on, the client makes one if absent). */
  idempotencyKey?: string;
}

/** Options of `waitForDocument`. */
export interface WaitOptions extends CallOptions {
  /** Give up after this long (default 60 s) with a {@link WaitTimeoutError}. */
  timeoutMs?: number;
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

/** The Blob and FormData classes of the runtime's fetch (those its Response makes). */
interface FetchRealm {
  Blob: typeof Blob;
  FormData: typeof FormData;
}
let realm: Promise<FetchRealm> | undefined;
// A DOM environment in a test (vitest's jsdom) puts its own Blob, File and FormData in the globals, which
// Node's fetch cannot read (a jsdom Blob has no stream()); a Response of the runtime's fetch makes its own.
const fetchRealm = () =>
  (realm ??= (async () => {
    const form = await new Response('', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }).formData();
    const blob = await new Response('').blob();
    return { Blob: blob.constructor as typeof Blob, FormData: form.constructor as typeof FormData };
  })());

// Which DOM environment runs this, for an error that says where a file cannot be read.
function environmentName(): string {
  const agent = typeof navigator === 'undefined' ? '' : String(navigator.userAgent);
  if (/jsdom/i.test(agent)) return "vitest's jsdom environment";
  if (/happydom/i.test(agent)) return "vitest's happy-dom environment";
  return 'this environment';
}

// The file as a Blob of the fetch's own (its bytes copied when it is another realm's), and its name.
async function toPart(file: UploadFile, { Blob: FetchBlob }: FetchRealm): Promise<[Blob, string]> {
  const isFile = typeof File !== 'undefined' && file instanceof File;
  const { name, data, type } = isFile ? { name: file.name, data: file, type: file.type } : (file as Exclude<UploadFile, File>);
  if (data instanceof FetchBlob) return [data, name];
  // Bytes, or a Blob of any realm (each has arrayBuffer()).
  const blobLike = data instanceof Blob || typeof (data as { arrayBuffer?: unknown }).arrayBuffer === 'function';
  if (!blobLike) {
    return [new FetchBlob([data as Uint8Array<ArrayBuffer>], type ? { type } : {}), name];
  }
  let bytes: ArrayBuffer;
  try {
    bytes = await (data as unknown as Blob).arrayBuffer();
  } catch (error) {
    throw new TypeError(
      `The file ${JSON.stringify(name)} cannot be read in ${environmentName()}: its Blob is not the one fetch reads, and its bytes could not be read (${error instanceof Error ? error.message : String(error)}). Pass the bytes instead ({ name, data: Uint8Array }), or run the test under vitest's node or happy-dom environment.`,
    );
  }
  return [new FetchBlob([bytes], type ? { type } : {}), name];
}

/** The error of an answer that is not one the contract describes (a gateway's page, a body that is not JSON). */
function unexpected(response: Response, detail: string): ClientError {
  return {
    type: 'about:blank',
    title: response.statusText || 'Unexpected response',
    status: response.status,
    detail,
    code: 'unexpected_response',
  };
}

/**
 * Turns openapi-fetch's `{ data, error, response }` into a {@link Result} whose error is always typed. Bodies
 * are read as text (`parseAs: 'text'`) and parsed here, so a 2xx that is not JSON (an HTML page a dev server
 * or a gateway answers for a path it does not know) is an `unexpected_response`, not a thrown SyntaxError.
 */
async function settle<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<Result<T>> {
  const { data, error, response } = await call;
  if (response.ok) {
    const text = typeof data === 'string' ? data : '';
    const mediaType = response.headers.get('content-type') ?? '';
    try {
      if (!/[/+]json\b/i.test(mediaType)) throw new TypeError(`a ${mediaType || 'body without a media type'}`);
      return { data: JSON.parse(text) as T, response };
    } catch (reason) {
      const what = reason instanceof SyntaxError ? 'a body that is not JSON' : (reason as Error).message;
      return {
        error: unexpected(response, `HTTP ${response.status} with ${what}, not the contract's JSON: ${text.slice(0, 300)}`),
        response,
      };
    }
  }
  const isProblem = typeof error === 'object' && error !== null && 'code' in error && 'status' in error;
  if (isProblem) return { error: error as ClientError, response };
  return {
    error: unexpected(response, typeof error === 'string' ? error.slice(0, 500) : `HTTP ${response.status} without a problem body`),
    response,
  };
}

// A UUID for Idempotency-Key: randomUUID exists only in secure contexts (https, localhost) of browsers.
function uuid(): string {
  if (typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const b = globalThis.crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const statusOf = (attempt: Attempt<unknown>) => attempt.result?.response.status;
// A network failure or a transient status: worth asking again when asking again is safe.
const transient = (attempt: Attempt<unknown>) => attempt.thrown !== undefined || TRANSIENT.includes(statusOf(attempt)!);

/**
 * A typed client for the Document Processing Service, over openapi-fetch. Browser-safe.
 * Every call resolves to `{ data }` or `{ error }` (a typed problem); only network failures throw.
 * @example
 * const docproc = createDocprocClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'docproc-dev-key', retry: true });
 * const { data, error } = await docproc.uploadDocuments([file]);
 * if (data) console.log(await docproc.waitForDocument(data.documents[0].document_id));
 */
export function createDocprocClient(options: DocprocClientOptions) {
  const api: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.fetch,
    headers: { ...options.headers, 'x-api-key': options.apiKey },
  });
  const policy = retryPolicy(options.retry);
  const retrying = policy.attempts > 1;

  const getOnce = (documentId: number, init: CallOptions = {}): Promise<Result<Document>> =>
    settle<Document>(
      api.GET(GET, { params: { path: { document_id: documentId } }, signal: init.signal, headers: init.headers, parseAs: 'text' }),
    );

  /** One document with its extracted text. */
  const getDocument = async (documentId: number, init: CallOptions = {}): Promise<Result<Document>> =>
    settled(await withRetry(policy, () => getOnce(documentId, init), transient, init.signal));

  /** One page of documents (page 1, 20 per page unless asked otherwise). */
  const listDocuments = async (query: ListQuery = {}, init: CallOptions = {}): Promise<Result<DocumentList>> =>
    settled(
      await withRetry(
        policy,
        () => settle<DocumentList>(api.GET(LIST, { params: { query }, signal: init.signal, headers: init.headers, parseAs: 'text' })),
        transient,
        init.signal,
      ),
    );

  return {
    /** The underlying openapi-fetch client, typed from the contract, for anything not wrapped here (never retried). */
    api,

    /**
     * Uploads files as repeated `files[]` parts; all are accepted (202) or none is. Pass an
     * `idempotencyKey` (one per logical upload) to make repeating the call after a network error safe;
     * with `retry` on the client makes one itself and repeats the call when that is safe.
     */
    async uploadDocuments(files: UploadFile[], init: UploadOptions = {}): Promise<Result<UploadResult>> {
      const fetchClasses = await fetchRealm();
      const parts = await Promise.all(files.map((file) => toPart(file, fetchClasses)));
      const given = Object.keys(init.headers ?? {}).some((name) => name.toLowerCase() === 'idempotency-key');
      const key = init.idempotencyKey ?? (given || !retrying ? undefined : uuid());
      const send = () =>
        settle<UploadResult>(
          api.POST(UPLOAD, {
            params: { header: key ? { 'Idempotency-Key': key } : {} },
            body: { 'files[]': parts.map(([blob]) => blob) },
            // openapi-fetch serializes bodies as JSON by default; multipart needs FormData (and no
            // explicit Content-Type, so fetch writes the boundary).
            bodySerializer: () => {
              const form = new fetchClasses.FormData();
              for (const [blob, name] of parts) form.append('files[]', blob, name);
              return form;
            },
            // openapi-fetch leaves the Content-Type to fetch only for the global FormData; this one may be
            // another realm's (see fetchRealm), so its JSON default is taken off here.
            headers: { ...Object.fromEntries(new Headers(init.headers)), 'content-type': null },
            signal: init.signal,
            parseAs: 'text',
          }),
        );
      // Under a key, a repeat is replayed (or told the first is still in flight, 409 idempotency_key_in_use).
      const again = (attempt: Attempt<UploadResult>) =>
        (key !== undefined || given) && (transient(attempt) || attempt.result?.error?.code === 'idempotency_key_in_use');
      return settled(await withRetry(policy, send, again, init.signal));
    },

    listDocuments,
    getDocument,

    /**
     * Starts processing again on a completed or failed document (409 while processing). With `retry` on it
     * is sent again only after a 429 or 503 (the contract: nothing was changed). A lost answer, a 408 or a
     * 5xx may hide a run that started (and a new request could start a second one once it ended), so the
     * document is read instead: if it is `processing`, that read is the result (`response` is the read's).
     */
    async retryDocument(documentId: number, init: CallOptions = {}): Promise<Result<Document>> {
      const send = () =>
        settle<Document>(
          api.POST(RETRY, { params: { path: { document_id: documentId } }, signal: init.signal, headers: init.headers, parseAs: 'text' }),
        );
      const first = await withRetry(policy, send, (a) => NOTHING_CHANGED.includes(statusOf(a)!), init.signal);
      if (retrying && transient(first) && !NOTHING_CHANGED.includes(statusOf(first)!)) {
        const read = await getDocument(documentId, init).catch(() => undefined);
        if (read?.data?.status === 'processing') return read;
      }
      return settled(first);
    },

    /**
     * Polls a document, backing off, until it is `completed` or `failed`; resolves with that read. Rides
     * out network errors and 408/429/5xx answers (waiting at least their `Retry-After`) until the
     * deadline; any other error (a 404) is the result at once. Rejects with {@link WaitTimeoutError}
     * at the deadline when the document was read still `processing`; a wait that never read it
     * resolves with the last error instead (or rethrows the network error).
     */
    async waitForDocument(
      documentId: number,
      { timeoutMs = 60_000, initialIntervalMs = 200, ...init }: WaitOptions = {},
    ): Promise<Result<Document>> {
      const deadline = Date.now() + timeoutMs;
      const backoff = createBackoff({ initialMs: initialIntervalMs, maxMs: 2_000 });
      let last: Document | undefined;
      for (;;) {
        init.signal?.throwIfAborted();
        let attempt: Attempt<Document>;
        try {
          attempt = { result: await getOnce(documentId, init) };
        } catch (thrown) {
          if (init.signal?.aborted) throw thrown;
          attempt = { thrown };
        }
        const data = attempt.result?.data;
        if (data && data.status !== 'processing') return attempt.result!;
        if (data) last = data;
        else if (!transient(attempt)) return attempt.result!;
        const left = deadline - Date.now();
        if (left <= 0) {
          if (last) throw new WaitTimeoutError(documentId, last, timeoutMs);
          return settled(attempt);
        }
        await sleep(Math.min(Math.max(retryAfterMs(attempt.result?.response) ?? 0, backoff.next()), left), init.signal);
      }
    },

    /**
     * Every document matching the query, page after page (`page` in the query is where to start).
     * Throws {@link DocprocProblemError} if a page cannot be read.
     */
    async *iterateDocuments(
      query: Omit<ListQuery, 'page'> & { page?: number } = {},
      init: CallOptions = {},
    ): AsyncGenerator<DocumentSummary> {
      for (let page = query.page ?? 1; ; page++) {
        const result = await listDocuments({ ...query, page }, init);
        if (result.error) throw new DocprocProblemError(result.error, result.response);
        yield* result.data.documents;
        if (page >= result.data.pagination.total_pages) return;
      }
    },
  };
}

/** The client returned by {@link createDocprocClient}. */
export type DocprocClient = ReturnType<typeof createDocprocClient>;
