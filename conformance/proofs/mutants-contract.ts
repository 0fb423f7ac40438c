// Test-only: the mutants of the checks derived from the contract (boundaries, where credentials may come
// from, forbidden properties, the Idempotency-Key after a refusal) and of the suite's robustness against
// odd answers. One defect each; mutants sharing a `group` run behind one proxy in one suite run.
import { isList, isUpload, problem, withQuery } from './mutant-behaviours.js';
import type { Mutant } from './mutants.js';
import { editJson, type ProxyRequest, type ProxyResponse, splitMultipart } from './mutation-proxy.js';

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

/** The UTF-8 length in bytes of the longest filename of an upload (its header bytes are read as Latin-1). */
function longestFilenameBytes(request: ProxyRequest): number {
  const split = splitMultipart(request.body, request.headers['content-type'] ?? '');
  return Math.max(0, ...(split?.parts ?? []).map((p) => /filename="([^"]*)"/.exec(p.head)?.[1]?.length ?? 0));
}

/** A 400 invalid_request naming what was wrong, as a server with this defect would answer. */
function invalidRequest(request: ProxyRequest, where: string, name: string): ProxyResponse {
  const refused = problem(request, 400, 'invalid_request');
  return editJson(refused, (b) => {
    b.errors = [{ in: where, name, message: 'too long' }];
  });
}

const boundary = (name: string, defect: string, fails: string, mutation: Mutant['mutation']): Mutant => ({
  name,
  defect,
  only: ['boundary'],
  fails: [fails],
  group: 'boundaries',
  mutation,
});

/** Uploads whose refusals are remembered under their Idempotency-Key and replayed to every later upload with it. */
function rememberedRefusals(): NonNullable<ReturnType<Mutant['mutation']>['respond']> {
  const refused = new Map<string, ProxyResponse>();
  return async (request, upstream) => {
    const key = request.headers['idempotency-key'];
    if (!isUpload(request) || key === undefined) return upstream(request);
    const scoped = `${request.headers['x-api-key'] ?? ''}\n${key}`;
    const earlier = refused.get(scoped);
    if (earlier) return { ...earlier, headers: { ...earlier.headers, 'x-request-id': request.headers['x-request-id'] ?? 'proxy' } };
    const response = await upstream(request);
    if (response.status >= 400 && response.status < 500) refused.set(scoped, response);
    return response;
  };
}

/** One defect per boundary rule, each touching only its own parameter's requests: they run as one group. */
const boundaryMutants: Mutant[] = [
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
];

const isRead = (r: ProxyRequest) => r.method === 'GET' && r.url.startsWith('/api/v1/documents/get_document/');
const asJson = (res: ProxyResponse, body: string): ProxyResponse => ({
  ...res,
  headers: { ...res.headers, 'content-type': 'application/json' },
  body: Buffer.from(body),
});

/** Targets that answer what a suite must survive: each failure is a named check, never a crash. */
const oddAnswerMutants: Mutant[] = [
  {
    name: 'odd-bodies',
    defect:
      'successful bodies are odd: a list is null, a read is an array, a retry is not JSON, an upload carries a number beyond any double (1e400)',
    only: ['upload', 'list', 'get', 'retry'],
    fails: ['response.body-matches-schema'],
    mutation: () => ({
      response: (res, req) => {
        if (res.status === 200 && isList(req)) return asJson(res, 'null');
        if (res.status === 200 && isRead(req)) return asJson(res, `[${res.body.toString()}]`);
        if (res.status === 202 && req.url.includes('/retry_documents/')) return asJson(res, 'retried, thanks');
        if (res.status === 202 && isUpload(req))
          return asJson(res, res.body.toString().replace(/"document_id":\d+/, '"document_id":1e400'));
        return res;
      },
    }),
  },
  {
    name: 'list-drops-a-document',
    defect: 'a list page leaves out its last document (the totals still count it)',
    only: ['list'],
    fails: [
      'list.default-limit-applied',
      'list.limit-respected',
      'list.pages-agree-with-total',
      'list.search-by-content',
      'list.search-by-filename',
      'list.search-is-literal',
      'list.status-filter',
    ],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 200
          ? editJson(res, (b) => {
              b.documents.pop();
            })
          : res,
    }),
  },
  {
    name: 'list-repeats-a-document',
    defect: 'a list page shows its first document twice, in place of its second',
    only: ['list'],
    fails: ['list.pages-agree-with-total', 'list.search-by-filename', 'list.status-filter'],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 200
          ? editJson(res, (b) => {
              if (b.documents.length > 1) b.documents[1] = b.documents[0];
            })
          : res,
    }),
  },
  {
    name: 'read-answers-another-document',
    defect: 'reading a document answers the one uploaded just before it (as when two uploads got one id)',
    only: ['get', 'lifecycle'],
    fails: ['get.matches-upload'],
    mutation: () => ({
      respond: async (req, upstream) => {
        const m = isRead(req) ? /\/get_document\/(\d+)$/.exec(req.url) : null;
        if (!m || Number(m[1]) < 2) return upstream(req);
        const other = await upstream({ ...req, url: req.url.replace(/\d+$/, String(Number(m[1]) - 1)) });
        return other.status === 200 ? other : upstream(req);
      },
    }),
  },
];

/** Mutants of checks that compare one status with the documented one, so the rules they cover are proven too. */
const statusMutants: Mutant[] = [
  {
    name: 'upload-parts-reversed',
    defect: 'a multi-file upload returns its documents in reverse part order',
    only: ['upload'],
    fails: ['upload.echoes-fields', 'upload.one-document-per-part'],
    group: 'upload-status',
    mutation: () => ({
      response: (res, req) =>
        isUpload(req) && res.status === 202
          ? editJson(res, (b) => {
              b.documents.reverse();
            })
          : res,
    }),
  },
  {
    name: 'no-files-is-413',
    defect: 'an upload without a files[] part is a 413 too_many_files instead of a 400',
    only: ['upload'],
    fails: ['upload.no-files'],
    group: 'upload-status',
    mutation: () => ({
      respond: (req, upstream) =>
        isUpload(req) && !req.body.includes('name="files[]"') && !req.body.includes('name="file"')
          ? Promise.resolve(problem(req, 413, 'too_many_files'))
          : upstream(req),
    }),
  },
  {
    name: 'pdf-refused-by-mock',
    defect: 'a valid PDF upload is a 415 (run in the contract profile, as against a mock)',
    only: ['upload'],
    fails: ['upload.accepted'],
    options: () => ({ profile: 'contract' }),
    mutation: () => ({
      respond: (req, upstream) =>
        isUpload(req) && req.body.includes('%PDF') && !req.body.includes('name="file"')
          ? Promise.resolve(problem(req, 415, 'unsupported_media_type'))
          : upstream(req),
    }),
  },
  {
    name: 'default-page-not-1',
    defect: 'a list without `page` says it is page 2 (the default page is not 1)',
    only: ['list'],
    fails: ['list.defaults', 'list.pages-agree-with-total'],
    group: 'list-status',
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 200 && !new URL(req.url, 'http://x').searchParams.has('page')
          ? editJson(res, (b) => {
              b.pagination.page = 2;
            })
          : res,
    }),
  },
  {
    name: 'unknown-params-refused',
    defect: 'an unknown query parameter is a 400 instead of being ignored',
    only: ['list'],
    fails: ['list.unknown-params-ignored'],
    group: 'list-status',
    mutation: () => ({
      respond: (req, upstream) =>
        isList(req) && new URL(req.url, 'http://x').searchParams.has('cachebuster')
          ? Promise.resolve(invalidRequest(req, 'query', 'cachebuster'))
          : upstream(req),
    }),
  },
  {
    name: 'unknown-path-is-401',
    defect: 'an unknown path under /api/v1 is a 401 instead of a 404',
    only: ['robustness', 'lifecycle'],
    fails: ['robustness.unknown-path'],
    group: 'misc-status',
    mutation: () => ({
      respond: (req, upstream) =>
        req.url.startsWith('/api/v1/') && /no-such|get_documents\/extra/.test(req.url)
          ? Promise.resolve(problem(req, 401, 'unauthorized'))
          : upstream(req),
    }),
  },
  {
    name: 'blank-fails',
    defect: 'a PDF read whole that holds no text ends failed instead of completed with content ""',
    only: ['robustness', 'lifecycle'],
    fails: ['lifecycle.no-text-completes-empty'],
    group: 'misc-status',
    mutation: () => ({
      response: (res, req) =>
        isRead(req) && res.status === 200
          ? editJson(res, (d) => {
              if (d.status === 'completed' && d.content === '')
                Object.assign(d, { status: 'failed', content: null, error: { code: 'unreadable_document', message: 'no text' } });
            })
          : res,
    }),
  },
];

export const contractMutants: Mutant[] = [
  ...boundaryMutants,
  ...oddAnswerMutants,
  ...statusMutants,
  {
    name: 'key-from-query-string',
    defect: 'a request without x-api-key is authenticated by ?api_key=, ?x-api-key= or ?apiKey= (as many frameworks allow)',
    only: ['auth'],
    fails: ['auth.key-only-in-header'],
    mutation: () => ({
      request: (r) => {
        if (r.headers['x-api-key'] !== undefined) return r;
        const q = new URL(r.url, 'http://x').searchParams;
        const key = q.get('api_key') ?? q.get('x-api-key') ?? q.get('apiKey');
        return key === null ? r : { ...r, headers: { ...r.headers, 'x-api-key': key } };
      },
    }),
  },
  {
    name: 'list-carries-content',
    defect: 'list items carry the extracted text (`content`), which the contract forbids in lists',
    only: ['list'],
    fails: ['response.no-forbidden-properties'],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 200
          ? editJson(res, (b) => {
              for (const d of b.documents) d.content = d.status === 'completed' ? 'extracted text' : null;
            })
          : res,
    }),
  },
  {
    name: 'failed-upload-remembered',
    defect: 'a refused upload is remembered under its Idempotency-Key: valid files under it get the refusal again',
    only: ['upload'],
    fails: ['upload.idempotency-key-after-failure'],
    mutation: () => ({ respond: rememberedRefusals() }),
  },
];
