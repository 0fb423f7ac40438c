// Test-only: the request and response rewrites the mutants are made of.
import { STATUS_CODES } from 'node:http';
import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import { isSaneRequestId } from '@docproc-kit/reference/http/request-id.js';
import {
  eachDocument,
  editJson,
  joinMultipart,
  type ProxyRequest,
  type ProxyResponse,
  splitMultipart,
} from '@docproc-kit/test-support/mutation-proxy.js';

/** A list request. */
export const isList = (r: ProxyRequest) => r.method === 'GET' && r.url.startsWith('/api/v1/documents/get_documents');
/** An upload request. */
export const isUpload = (r: ProxyRequest) => r.method === 'POST' && r.url.startsWith('/api/v1/documents/upload_files');
/** A retry request. */
export const isRetry = (r: ProxyRequest) => r.method === 'POST' && r.url.startsWith('/api/v1/documents/retry_documents/');
/** The document statuses of the bundled contract. */
export const STATUSES = ['processing', 'completed', 'failed'];

/** The request with its query edited. */
export function withQuery(request: ProxyRequest, edit: (q: URLSearchParams) => void): ProxyRequest {
  const url = new URL(request.url, 'http://x');
  edit(url.searchParams);
  return { ...request, url: `${url.pathname}${url.search}` };
}

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): ProxyResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(JSON.stringify(body)) };
}

/** A list that ignores content: walks every page upstream without `search` and filters names only. */
export async function searchNamesOnly(
  request: ProxyRequest,
  upstream: (r: ProxyRequest) => Promise<ProxyResponse>,
  matches?: (filename: string) => boolean,
): Promise<ProxyResponse> {
  const url = new URL(request.url, 'http://x');
  const term = url.searchParams.get('search');
  // A repeated search stays the service's to refuse: the defect is in how one term is matched.
  const once = url.searchParams.getAll('search').length === 1;
  if (!isList(request) || !once || term === null || term.length === 0 || term.length > 200) return upstream(request);
  const page = Number(url.searchParams.get('page') ?? 1);
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const all: Array<{ filename: string }> = [];
  for (let p = 1; ; p++) {
    const res = await upstream(
      withQuery(request, (q) => {
        q.delete('search');
        q.set('limit', '100');
        q.set('page', String(p));
      }),
    );
    if (res.status !== 200) return res;
    const body = JSON.parse(res.body.toString()) as { documents: Array<{ filename: string }>; pagination: { total_pages: number } };
    all.push(...body.documents);
    if (p >= body.pagination.total_pages) break;
  }
  const hits = all.filter((d) => (matches ? matches(d.filename) : d.filename.toLowerCase().includes(term.toLowerCase())));
  const pagination = { page, limit, total: hits.length, total_pages: Math.ceil(hits.length / limit) };
  return json(200, { documents: hits.slice((page - 1) * limit, page * limit), pagination }, { 'x-request-id': echoedRequestId(request) });
}

/** A search where `%` and `_` are SQL LIKE wildcards (on filenames), as a naive LIKE query would do. */
export async function searchLike(request: ProxyRequest, upstream: (r: ProxyRequest) => Promise<ProxyResponse>): Promise<ProxyResponse> {
  const term = new URL(request.url, 'http://x').searchParams.get('search');
  if (!isList(request) || !term || !/[%_]/.test(term)) return upstream(request);
  const pattern = new RegExp(
    term
      .split('')
      .map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join(''),
    'i',
  );
  return searchNamesOnly(request, upstream, (filename) => pattern.test(filename));
}

/**
 * A search answered as a server folding case with toLowerCase would: of the documents the real search
 * found, those whose filename matches only under full case folding are dropped (and the total with them).
 */
export async function searchLowercaseOnly(
  request: ProxyRequest,
  upstream: (r: ProxyRequest) => Promise<ProxyResponse>,
): Promise<ProxyResponse> {
  const term = new URL(request.url, 'http://x').searchParams.get('search');
  const res = await upstream(request);
  if (!isList(request) || term === null || res.status !== 200) return res;
  const body = JSON.parse(res.body.toString()) as {
    documents: Array<{ filename: string }>;
    pagination: { limit: number; total: number; total_pages: number };
  };
  const onlyFolded = (name: string) =>
    foldForSearch(name).includes(foldForSearch(term)) && !name.toLowerCase().includes(term.toLowerCase());
  const kept = body.documents.filter((d) => !onlyFolded(d.filename));
  const total = body.pagination.total - (body.documents.length - kept.length);
  const pagination = { ...body.pagination, total, total_pages: Math.ceil(total / body.pagination.limit) };
  return json(200, { ...body, documents: kept, pagination }, { 'x-request-id': echoedRequestId(request) });
}

/** An upload that stores each part on its own, so good parts before a bad one are kept. */
export async function uploadPartByPart(
  request: ProxyRequest,
  upstream: (r: ProxyRequest) => Promise<ProxyResponse>,
): Promise<ProxyResponse> {
  const split = isUpload(request) ? splitMultipart(request.body, request.headers['content-type'] ?? '') : undefined;
  if (!split || split.parts.length < 2) return upstream(request);
  const documents: unknown[] = [];
  let last: ProxyResponse | undefined;
  for (const part of split.parts) {
    last = await upstream({ ...request, body: joinMultipart(split.boundary, [part]) });
    if (last.status !== 202) return last;
    documents.push(...(JSON.parse(last.body.toString()) as { documents: unknown[] }).documents);
  }
  return { ...last!, body: Buffer.from(JSON.stringify({ documents })) };
}

/** The X-Request-Id a server answers a request with: the client's when the contract lets it be echoed, else one of its own. */
export function echoedRequestId(request: ProxyRequest): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && isSaneRequestId(given) ? given : 'proxy';
}

/** A problem+json answer of the kind the reference server gives. */
export function problem(request: ProxyRequest, status: number, code: string): ProxyResponse {
  return {
    status,
    headers: { 'content-type': 'application/problem+json', 'x-request-id': echoedRequestId(request) },
    // Titled as the contract says (the reason phrase), so the mutant breaks only what it was built to break.
    body: Buffer.from(
      JSON.stringify({
        type: 'about:blank',
        title: STATUS_CODES[status] ?? 'Error',
        status,
        detail: `refused by the mutant (${code})`,
        code,
      }),
    ),
  };
}

/** How many parts an upload's multipart body has. */
export function partCount(request: ProxyRequest): number {
  return splitMultipart(request.body, request.headers['content-type'] ?? '')?.parts.length ?? 0;
}

/** The size of an upload's largest part. */
export function largestPart(request: ProxyRequest): number {
  return Math.max(0, ...(splitMultipart(request.body, request.headers['content-type'] ?? '')?.parts.map((p) => p.data.length) ?? []));
}

/** A list whose totals add up what every key sees for the same query (the documents stay the caller's own). */
export async function totalsAcrossTenants(
  request: ProxyRequest,
  upstream: (r: ProxyRequest) => Promise<ProxyResponse>,
  keys: string[],
): Promise<ProxyResponse> {
  const res = await upstream(request);
  if (!isList(request) || res.status !== 200) return res;
  const body = JSON.parse(res.body.toString()) as { pagination: { total: number; total_pages: number; limit: number } };
  for (const key of keys.filter((k) => k !== request.headers['x-api-key'])) {
    const other = await upstream({ ...request, headers: { ...request.headers, 'x-api-key': key } });
    if (other.status === 200) body.pagination.total += (JSON.parse(other.body.toString()) as typeof body).pagination.total;
  }
  body.pagination.total_pages = Math.ceil(body.pagination.total / body.pagination.limit);
  return { ...res, body: Buffer.from(JSON.stringify(body)) };
}

/** Uploads whose Idempotency-Key is remembered across API keys: a later key gets the first key's answer. */
export function sharedIdempotencyKeys(): (
  request: ProxyRequest,
  upstream: (r: ProxyRequest) => Promise<ProxyResponse>,
) => Promise<ProxyResponse> {
  const seen = new Map<string, { apiKey: string; response: ProxyResponse }>();
  return async (request, upstream) => {
    const key = request.headers['idempotency-key'];
    if (!isUpload(request) || key === undefined) return upstream(request);
    const earlier = seen.get(key);
    if (earlier && earlier.apiKey !== request.headers['x-api-key']) {
      return { ...earlier.response, headers: { ...earlier.response.headers, 'x-request-id': echoedRequestId(request) } };
    }
    const res = await upstream(request);
    if (res.status === 202 && !earlier) seen.set(key, { apiKey: request.headers['x-api-key'] ?? '', response: res });
    return res;
  };
}

/** Quote-heavy text without an `@`: the kind of line that made vitest's stack parser backtrack for minutes. */
export const NOISY_TEXT = Array.from({ length: 120 }, (_, i) => `"field_${i}": "value \\"${i}\\""`).join(', ');

/**
 * Every document body made wrong twice over, as a server written elsewhere might: timestamps without a
 * timezone (the schema wants date-time) and a ~4 KB undocumented property full of quotes.
 */
export function noisyDocuments(response: ProxyResponse): ProxyResponse {
  return editJson(response, (b) =>
    eachDocument(b, (d) => {
      for (const k of ['created_at', 'updated_at', 'processed_at'])
        if (typeof d[k] === 'string') d[k] = String(d[k]).replace(/(\.\d+)?Z$/, '');
      d.debug = NOISY_TEXT;
    }),
  );
}

/** A 400 invalid_request naming what was wrong, as a server with this defect would answer. */
export function invalidRequest(request: ProxyRequest, where: string, name: string): ProxyResponse {
  const refused = problem(request, 400, 'invalid_request');
  return editJson(refused, (b) => {
    b.errors = [{ in: where, name, message: 'too long' }];
  });
}

/**
 * An upload whose quoted filenames lose the backslash of each escaped quote (`\"`), so the quote ends the
 * quoted-string as a parser that knows no quoted-pairs reads it: the rest of the header is garbage and the
 * server behind skips the part.
 */
export function quotedPairsEndFilenames(request: ProxyRequest): ProxyRequest {
  const split = isUpload(request) ? splitMultipart(request.body, request.headers['content-type'] ?? '') : undefined;
  if (!split?.parts.some((p) => /filename="[^\r\n]*\\"/.test(p.head))) return request;
  const parts = split.parts.map((p) => ({ ...p, head: p.head.replace(/\\"/g, '"') }));
  return { ...request, body: joinMultipart(split.boundary, parts) };
}

/**
 * Whether a quoted filename never ends to a parser that takes every `\\"` for an escaped quote, even when its
 * backslash is itself escaped (`"x\\\\"`): it runs past the closing quote and the header is unusable.
 */
export function filenameNeverClosesToNaiveParser(request: ProxyRequest): boolean {
  const split = isUpload(request) ? splitMultipart(request.body, request.headers['content-type'] ?? '') : undefined;
  return (split?.parts ?? []).some((p) => {
    const start = /filename="/i.exec(p.head);
    if (!start) return false;
    const line = p.head.slice(start.index + start[0].length).split('\r\n')[0]!;
    for (let i = 0; i < line.length; i++) {
      if (line[i] === '\\' && line[i + 1] === '"') i++;
      else if (line[i] === '"') return false;
    }
    return true;
  });
}
