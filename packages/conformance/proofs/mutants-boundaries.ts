// Test-only: one defect per boundary rule (src/checks/boundary-cases.ts), each touching only its own
// parameter's requests, so they run as one group behind one proxy in one suite run.

import { joinMultipart, type ProxyRequest, splitMultipart } from '@docproc-kit/test-support/mutation-proxy.js';
import { invalidRequest, isList, isUpload, problem, withQuery } from './mutant-behaviours.js';
import type { Mutant } from './mutants.js';

const MAX_ID = BigInt(Number.MAX_SAFE_INTEGER);

/** What a lenient parser makes of an integer's text (trimmed, signed, underscored, other digits, hex, exponent): its plain spelling. */
export function lenientInteger(raw: string): string | undefined {
  const ascii = raw
    .trim()
    .replace(/^\+/, '')
    .replace(/_/g, '')
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660))
    .replace(/[\uff10-\uff19]/g, (d) => String(d.charCodeAt(0) - 0xff10));
  if (ascii === '') return undefined;
  const value = Number(ascii);
  return Number.isSafeInteger(value) ? String(value) : undefined;
}

/** A list request whose query parameter `name` is rewritten by `edit` (undefined: left alone, null: removed). */
function editListParam(name: string, edit: (value: string) => string | null | undefined) {
  return (r: ProxyRequest): ProxyRequest =>
    isList(r)
      ? withQuery(r, (q) => {
          const value = q.get(name);
          if (value === null) return;
          const edited = edit(value);
          if (edited === null) q.delete(name);
          else if (edited !== undefined) q.set(name, edited);
        })
      : r;
}

/** A read or retry whose path id is rewritten by `edit` (undefined: left alone). */
function editPathId(edit: (raw: string) => string | undefined) {
  return (r: ProxyRequest): ProxyRequest => {
    const m = /^(\/api\/v1\/documents\/(?:get_document|retry_documents)\/)([^/?]*)(.*)$/.exec(r.url);
    if (!m) return r;
    const edited = edit(decodeURIComponent(m[2]!));
    return edited === undefined ? r : { ...r, url: `${m[1]}${encodeURIComponent(edited)}${m[3]}` };
  };
}

/** An upload whose Idempotency-Key header is rewritten by `edit` (null: removed). */
function editIdempotencyKey(edit: (key: string) => string | null | undefined) {
  return (r: ProxyRequest): ProxyRequest => {
    const key = r.headers['idempotency-key'];
    if (!isUpload(r) || key === undefined) return r;
    const edited = edit(key);
    if (edited === undefined) return r;
    const { 'idempotency-key': _, ...headers } = r.headers;
    return { ...r, headers: edited === null ? headers : { ...headers, 'idempotency-key': edited } };
  };
}

/**
 * An upload whose `filename*` values lose their `%00`s, as a stack that drops control characters from a name
 * keeps it (the reference server behind then stores what is left).
 */
function dropNulFromFilenameStar(request: ProxyRequest): ProxyRequest {
  const split = isUpload(request) ? splitMultipart(request.body, request.headers['content-type'] ?? '') : undefined;
  if (!split?.parts.some((p) => /filename\*=[^;\r\n]*%00/i.test(p.head))) return request;
  const parts = split.parts.map((p) => ({ ...p, head: p.head.replace(/(filename\*=[^;\r\n]*)/gi, (value) => value.replace(/%00/gi, '')) }));
  return { ...request, body: joinMultipart(split.boundary, parts) };
}

/** The UTF-8 length in bytes of the longest filename of an upload (its header bytes are read as Latin-1). */
function longestFilenameBytes(request: ProxyRequest): number {
  const split = splitMultipart(request.body, request.headers['content-type'] ?? '');
  return Math.max(0, ...(split?.parts ?? []).map((p) => /filename="([^"]*)"/.exec(p.head)?.[1]?.length ?? 0));
}

const boundary = (name: string, defect: string, fails: string, mutation: Mutant['mutation']): Mutant => ({
  name,
  defect,
  only: ['boundary'],
  fails: [fails],
  group: 'boundaries',
  mutation,
});

/** One defect per boundary rule, each touching only its own parameter's requests: they run as one group. */
export const boundaryMutants: Mutant[] = [
  boundary('page-zero-read-as-one', 'page=0 is read as page 1', 'boundary.page-minimum', () => ({
    request: editListParam('page', (v) => (v === '0' ? '1' : undefined)),
  })),
  boundary('page-past-max-clamped', 'a page past 2^53-1 is clamped to 2^53-1', 'boundary.page-maximum', () => ({
    request: editListParam('page', (v) => (/^\d+$/.test(v) && BigInt(v) > MAX_ID ? String(MAX_ID) : undefined)),
  })),
  boundary('page-parsed-leniently', 'page is parsed by a lenient parser (+10, 1e1, 0xa, 1_0, ...)', 'boundary.page-integer', () => ({
    request: editListParam('page', (v) => (/^(0|[1-9]\d*)$/.test(v) ? undefined : lenientInteger(v))),
  })),
  boundary('limit-zero-read-as-default', 'limit=0 is read as the default page size', 'boundary.limit-minimum', () => ({
    request: editListParam('limit', (v) => (v === '0' ? null : undefined)),
  })),
  boundary('limit-past-max-clamped', 'a limit past the maximum is clamped to it', 'boundary.limit-maximum', () => ({
    request: editListParam('limit', (v) => (/^\d+$/.test(v) && Number(v) > 100 ? '100' : undefined)),
  })),
  boundary('limit-parsed-leniently', 'limit is parsed by a lenient parser', 'boundary.limit-integer', () => ({
    request: editListParam('limit', (v) => (/^(0|[1-9]\d*)$/.test(v) ? undefined : lenientInteger(v))),
  })),
  boundary(
    'status-filter-case-insensitive',
    'status_filter is trimmed and compared case-insensitively',
    'boundary.status-filter-enum',
    () => ({
      request: editListParam('status_filter', (v) => (v.trim().toLowerCase() === v ? undefined : v.trim().toLowerCase())),
    }),
  ),
  boundary('search-empty-ignored', 'an empty search is ignored instead of refused', 'boundary.search-min-length', () => ({
    request: editListParam('search', (v) => (v === '' ? null : undefined)),
  })),
  boundary('search-length-in-bytes', 'search is limited to 200 UTF-8 bytes, not 200 characters', 'boundary.search-max-length', () => ({
    respond: (req, upstream) => {
      const term = isList(req) ? new URL(req.url, 'http://x').searchParams.get('search') : null;
      return term !== null && Buffer.byteLength(term) > 200 ? Promise.resolve(invalidRequest(req, 'query', 'search')) : upstream(req);
    },
  })),
  boundary('search-nul-dropped', 'a NUL in search is dropped and the rest searched, instead of refused', 'boundary.search-nul', () => ({
    request: editListParam('search', (v) => (v.includes('\u0000') ? v.replaceAll('\u0000', '') : undefined)),
  })),
  boundary('id-zero-looked-up', 'document id 0 is looked up (a 404) instead of refused', 'boundary.document-id-minimum', () => ({
    respond: (req, upstream) =>
      editPathId((id) => (id === '0' ? 'x' : undefined))(req) !== req ? Promise.resolve(problem(req, 404, 'not_found')) : upstream(req),
  })),
  boundary('id-past-max-looked-up', 'ids past 2^53-1 are looked up (a 404) instead of refused', 'boundary.document-id-maximum', () => ({
    request: editPathId((id) => (/^\d+$/.test(id) && BigInt(id) > MAX_ID ? String(MAX_ID) : undefined)),
  })),
  boundary('id-parsed-leniently', 'document ids are parsed by a lenient parser', 'boundary.document-id-integer', () => ({
    request: editPathId((id) => (/^(0|[1-9]\d*)$/.test(id) ? undefined : lenientInteger(id))),
  })),
  boundary(
    'idempotency-key-empty-ignored',
    'an empty Idempotency-Key is ignored instead of refused',
    'boundary.idempotency-key-min-length',
    () => ({
      request: editIdempotencyKey((key) => (key === '' ? null : undefined)),
    }),
  ),
  boundary(
    'idempotency-key-truncated',
    'an Idempotency-Key over 255 characters is cut to 255',
    'boundary.idempotency-key-max-length',
    () => ({
      request: editIdempotencyKey((key) => (key.length > 255 ? key.slice(0, 255) : undefined)),
    }),
  ),
  boundary(
    'idempotency-key-any-bytes',
    'an Idempotency-Key with characters outside printable ASCII is accepted',
    'boundary.idempotency-key-pattern',
    () => ({
      request: editIdempotencyKey((key) => (/^[\x20-\x7e]*$/.test(key) ? undefined : key.replace(/[^\x20-\x7e]/g, '_'))),
    }),
  ),
  boundary(
    'filename-length-in-bytes',
    'filenames are limited to 255 UTF-8 bytes, not 255 characters',
    'boundary.filename-max-length',
    () => ({
      respond: (req, upstream) =>
        isUpload(req) && longestFilenameBytes(req) > 255 ? Promise.resolve(invalidRequest(req, 'body', 'files[]')) : upstream(req),
    }),
  ),
  boundary(
    'filename-nul-dropped',
    'a NUL in a filename* is dropped and the rest stored as the name, instead of refused',
    'boundary.filename-nul',
    () => ({ request: dropNulFromFilenameStar }),
  ),
];

/**
 * Defects a grouped mutant's check already names: each runs on its own (a group may fail a check once).
 * `010` read as octal is another number, so the reading the contract leaves open is not this one.
 */
export const soloBoundaryMutants: Mutant[] = [
  {
    name: 'page-leading-zero-octal',
    defect: "page=010 is read as octal (8), as C's strtol with base 0 reads it",
    only: ['boundary'],
    fails: ['boundary.page-integer'],
    mutation: () => ({
      request: editListParam('page', (v) => (/^0[0-7]+$/.test(v) ? String(Number.parseInt(v, 8)) : undefined)),
    }),
  },
];
