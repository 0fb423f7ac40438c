// Test-only: servers that differ from the reference server only in ways the contract allows. The suite
// must pass every one with zero failures: a false failure is as serious as a missed defect.
import { gzipSync } from 'node:zlib';
import {
  eachDocument,
  type Mutation,
  type ProxyRequest,
  type ProxyResponse,
  splitMultipart,
} from '@docproc-kit/test-support/mutation-proxy.js';
import type { ReferenceServerOptions } from '@docproc-kit/test-support/reference-server.js';
import type { ConformanceOptions } from '../src/definitions/config.js';
import { echoedRequestId, isUpload, withQuery } from './mutant-behaviours.js';

/** One allowed variation of the wire or the deployment. */
export interface BenignVariant {
  name: string;
  /** What differs, as a sentence. */
  difference: string;
  /** The proxy's rewrite, if the variation is on the wire. */
  mutation?: Mutation;
  /** How the reference server behind it is started, if the deployment differs. */
  server?: ReferenceServerOptions;
  /** Suite options that describe the deployment (its limits). */
  options?: Partial<ConformanceOptions>;
  /** Checks the deployment gives no occasion for (each reported with the reason), if any. */
  notExercised?: string[];
}

const isJson = (r: ProxyResponse) => /json/.test(r.headers['content-type'] ?? '');

function rewriteJson(response: ProxyResponse, edit: (value: unknown) => unknown): ProxyResponse {
  return isJson(response) && response.body.length > 0
    ? { ...response, body: Buffer.from(JSON.stringify(edit(JSON.parse(response.body.toString('utf8'))))) }
    : response;
}

/** Every object's keys in reverse order, recursively: JSON objects are unordered. */
export function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}

const UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

/** The same instant written with microseconds and a +02:00 offset, as another stack might (RFC 3339 allows both). */
export function offsetTimestamp(value: string): string {
  const m = UTC_TIMESTAMP.exec(value);
  if (!m) return value;
  const local = new Date(Date.parse(value) + 2 * 3600_000).toISOString().replace(/\.\d+Z$/, '');
  return `${local}.${(m[5] ?? '').padEnd(3, '0')}123+02:00`;
}

function offsetTimestamps(value: unknown): unknown {
  if (typeof value === 'string') return offsetTimestamp(value);
  if (Array.isArray(value)) return value.map(offsetTimestamps);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, offsetTimestamps(v)]));
}

/** Every timestamp cut to the second it falls in (two changes within one second then share one `updated_at`). */
function wholeSeconds(value: unknown): unknown {
  if (typeof value === 'string') return UTC_TIMESTAMP.test(value) ? value.replace(/\.\d+Z$/, 'Z') : value;
  if (Array.isArray(value)) return value.map(wholeSeconds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wholeSeconds(v)]));
}

/** Header names in upper case (HTTP header names are case-insensitive). */
export function shoutHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
}

/** An upload without a multipart Content-Type answered by naming the header, a reading the contract allows. */
function nameContentType(response: ProxyResponse, request: ProxyRequest): ProxyResponse {
  const upload = request.method === 'POST' && request.url.startsWith('/api/v1/documents/upload_files');
  if (response.status !== 400 || !upload || /multipart/i.test(request.headers['content-type'] ?? '')) return response;
  return rewriteJson(response, (body) => ({
    ...(body as object),
    errors: [{ in: 'header', name: 'content-type', message: 'must be multipart/form-data' }],
  }));
}

/**
 * Every wire-level variation at once: keys reordered, timestamps with microseconds and an offset,
 * `charset=utf-8`, header names upper-cased, extra undocumented headers, `Connection: close`, bodies
 * chunked, gzip when the client accepts it, and a body-less upload's 400 naming the Content-Type header.
 * Each is proven active by benign-variants.test.ts.
 */
export const wireVariations: Mutation = {
  response: (response, request) => {
    let out = rewriteJson(nameContentType(response, request), (body) => offsetTimestamps(reverseKeys(body)));
    const type = out.headers['content-type'];
    if (type && isJson(out) && !/charset/i.test(type))
      out = { ...out, headers: { ...out.headers, 'content-type': `${type}; charset=utf-8` } };
    return {
      ...out,
      headers: { ...out.headers, 'x-powered-by': 'another-stack/1.0', 'server-timing': 'db;dur=1.2', 'cache-control': 'no-store' },
    };
  },
  write(res, response, request) {
    const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '') && response.body.length > 0;
    const body = gzip ? gzipSync(response.body) : response.body;
    res.writeHead(
      response.status,
      shoutHeaders({ ...response.headers, connection: 'close', ...(gzip ? { 'content-encoding': 'gzip' } : {}) }),
    );
    // Several chunks, so Transfer-Encoding: chunked carries the body in pieces.
    for (let i = 0; i < body.length; i += 512) res.write(body.subarray(i, i + 512));
    res.end();
  },
};

/** An integer with a leading zero or `+` in its plain spelling (`010`, `+10` -> `10`), else undefined. */
export function plainInteger(text: string): string | undefined {
  return /^\+?[0-9]+$/.test(text) && /^(\+|0[0-9])/.test(text) ? BigInt(text).toString() : undefined;
}

/**
 * The integers of paths and queries read as most stacks' integer parsers read them: `010` and `+10` as 10
 * (the contract leaves both readings open), by rewriting the request before the reference server sees it.
 */
export function readIntegersLeniently(request: ProxyRequest): ProxyRequest {
  const path = /^(\/api\/v1\/documents\/(?:get_document|retry_documents)\/)([^/?]*)(.*)$/.exec(request.url);
  if (path) {
    let raw: string;
    try {
      raw = decodeURIComponent(path[2]!);
    } catch {
      return request;
    }
    const plain = plainInteger(raw);
    return plain === undefined ? request : { ...request, url: `${path[1]}${plain}${path[3]}` };
  }
  if (!request.url.startsWith('/api/v1/documents/get_documents')) return request;
  return withQuery(request, (q) => {
    for (const name of ['page', 'limit']) {
      const plain = plainInteger(q.get(name) ?? '');
      if (plain !== undefined && q.getAll(name).length === 1) q.set(name, plain);
    }
  });
}

/**
 * A stack that keeps the quoted-pairs of a quoted filename as sent (`say \\"hi\\".pdf`), using them only to
 * find the closing quote, where the reference server reads them (`say "hi".pdf`): each such name is learnt
 * from its upload and shown as sent in every answer after.
 */
export function keepQuotedPairs(): Mutation {
  const asSent = new Map<string, string>();
  return {
    response: (response, request) => {
      if (isUpload(request) && response.status === 202) {
        for (const part of splitMultipart(request.body, request.headers['content-type'] ?? '')?.parts ?? []) {
          const raw = /filename="((?:[^"\\\r\n]|\\.)*)"/.exec(part.head)?.[1];
          const read = raw?.replace(/\\(["\\])/g, '$1');
          if (raw !== undefined && read !== raw && /^[\x20-\x7e]*$/.test(raw)) asSent.set(read!, raw);
        }
      }
      if (asSent.size === 0) return response;
      return rewriteJson(response, (body) => {
        eachDocument(body, (doc) => {
          doc.filename = asSent.get(String(doc.filename)) ?? doc.filename;
        });
        return body;
      });
    },
  };
}

/**
 * A strict multipart parser: a body the standards leave to the parser (transport padding after a boundary, a
 * `Content-Disposition` parameter without a name or a `;` with nothing after it, bare LF line endings,
 * `name=files[]` unquoted) is refused as malformed, a 400 that stores nothing, where the reference server
 * reads some of them (busboy keeps a part with a nameless parameter).
 */
export function refuseLenientMultipart(): Mutation {
  const lenient = (body: string, boundary: string) => {
    const delimiter = `--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    // A parameter's form is read outside quoted strings: `filename="a;=b.pdf"` is a well-formed name.
    const unquoted = body.replace(/"(?:[^"\\\r\n]|\\.)*"/g, '""');
    return (
      [new RegExp(`\\r\\n${delimiter}[ \\t]+\\r\\n`), new RegExp(`(^|[^\\r])\\n${delimiter}`)].some((form) => form.test(body)) ||
      [/^content-disposition:[^\r\n]*;[ \t]*(=|\r)/im, /;\s*name=[^"\s;]*\[/i].some((form) => form.test(unquoted))
    );
  };
  return {
    respond: (request, upstream) => {
      const boundary = /boundary\s*=\s*"?([^";]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1];
      if (!isUpload(request) || boundary === undefined || !lenient(`\r\n${request.body.toString('latin1')}`, boundary))
        return upstream(request);
      return Promise.resolve({
        status: 400,
        headers: { 'content-type': 'application/problem+json', 'x-request-id': echoedRequestId(request) },
        body: Buffer.from(
          JSON.stringify({
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            detail: 'The multipart body is malformed.',
            code: 'invalid_request',
            errors: [{ in: 'body', name: 'body', message: 'is not valid multipart/form-data' }],
          }),
        ),
      });
    },
  };
}

/** The variants the suite must pass, each against its own reference server. */
export const benignVariants: BenignVariant[] = [
  { name: 'wire-variations', difference: 'every wire-level variation the contract allows, at once', mutation: wireVariations },
  { name: 'slow-processing', difference: 'processing takes 10x longer (2 s a run)', server: { processingDelayMs: 2000 } },
  {
    name: 'fast-processing',
    difference:
      'a run takes only as long as the extraction (no minimum delay: milliseconds), so one can end between two retries released together',
    server: { processingDelayMs: 0 },
  },
  ...[1, 3, 7].map((n) => ({
    name: `max-files-${n}`,
    difference: `the deployment takes at most ${n} file(s) per upload`,
    server: { maxFiles: n },
    options: { maxFiles: n },
    // Both need two files in one upload.
    ...(n === 1 ? { notExercised: ['upload.all-or-nothing', 'upload.one-document-per-part'] } : {}),
  })),
  {
    name: 'integers-read-leniently',
    difference: 'integers with a leading zero or a `+` (`010`, `+10`) read as the number, as FastAPI, Spring, Go and Number() read them',
    mutation: { request: readIntegersLeniently },
  },
  {
    name: 'quoted-pairs-kept',
    difference:
      'a quoted filename keeps its quoted-pairs as sent (`say \\"hi\\".pdf`), as parsers that use them only to find the closing quote do',
    mutation: keepQuotedPairs(),
  },
  {
    name: 'multipart-read-strictly',
    difference:
      'a multipart body the standards leave to the parser (transport padding, a nameless or empty parameter, bare LF, `name=files[]` unquoted) is refused as malformed',
    mutation: refuseLenientMultipart(),
  },
  {
    name: 'whole-second-timestamps',
    difference: 'timestamps in whole seconds, as a database column without fractions keeps them (RFC 3339 needs none)',
    mutation: { response: (response) => rewriteJson(response, wholeSeconds) },
  },
  {
    name: 'default-limits',
    difference:
      "the deployment keeps the contract's default limits and the suite is told none: it assumes x-default-limits (25 MiB, 20 files)",
    server: { maxFiles: undefined, maxFileBytes: undefined },
    options: { maxFiles: undefined, maxFileBytes: undefined },
  },
];
