// Test-only: the mutants of the checks derived from the contract (boundaries, where credentials may come
// from, forbidden properties, the Idempotency-Key after a refusal) and of the suite's robustness against
// odd answers. One defect each; mutants sharing a `group` run behind one proxy in one suite run.

import { editJson, type ProxyRequest, type ProxyResponse, splitMultipart } from '@docproc-kit/test-support/mutation-proxy.js';
import { echoedRequestId, invalidRequest, isList, isUpload, problem } from './mutant-behaviours.js';
import type { Mutant } from './mutants.js';
import { boundaryMutants, soloBoundaryMutants } from './mutants-boundaries.js';

/** Uploads whose refusals are remembered under their Idempotency-Key and replayed to every later upload with it. */
function rememberedRefusals(): NonNullable<ReturnType<Mutant['mutation']>['respond']> {
  const refused = new Map<string, ProxyResponse>();
  return async (request, upstream) => {
    const key = request.headers['idempotency-key'];
    if (!isUpload(request) || key === undefined) return upstream(request);
    const scoped = `${request.headers['x-api-key'] ?? ''}\n${key}`;
    const earlier = refused.get(scoped);
    if (earlier) {
      // The refusal replayed as a service that caches it would render it: for this request, its id included.
      const requestId = echoedRequestId(request);
      const problem = JSON.parse(earlier.body.toString('utf8')) as Record<string, unknown>;
      if ('request_id' in problem) problem.request_id = requestId;
      return { ...earlier, headers: { ...earlier.headers, 'x-request-id': requestId }, body: Buffer.from(JSON.stringify(problem)) };
    }
    const response = await upstream(request);
    if (response.status >= 400 && response.status < 500) refused.set(scoped, response);
    return response;
  };
}

/**
 * A store that files an upload without a key under the key `undefined` (a template of the missing key): the
 * first upload under the key `undefined` replays the last keyless one.
 */
function keylessFiledAsUndefined(): NonNullable<ReturnType<Mutant['mutation']>['respond']> {
  const lastKeyless = new Map<string, ProxyResponse>();
  return async (request, upstream) => {
    const key = request.headers['idempotency-key'];
    const tenant = request.headers['x-api-key'] ?? '';
    if (!isUpload(request) || (key !== undefined && key !== 'undefined')) return upstream(request);
    const earlier = key === undefined ? undefined : lastKeyless.get(tenant);
    if (earlier)
      return { ...earlier, headers: { ...earlier.headers, 'idempotent-replayed': 'true', 'x-request-id': echoedRequestId(request) } };
    const response = await upstream(request);
    if (key === undefined && response.status === 202) lastKeyless.set(tenant, response);
    return response;
  };
}

/** Idempotency that compares the parts' names alone: a repeat with the same names replays the first 202, whatever its bytes. */
function replayByNamesAlone(): NonNullable<ReturnType<Mutant['mutation']>['respond']> {
  const first = new Map<string, { names: string; response: ProxyResponse }>();
  return async (request, upstream) => {
    const key = request.headers['idempotency-key'];
    if (!isUpload(request) || key === undefined) return upstream(request);
    const scoped = `${request.headers['x-api-key'] ?? ''}\n${key}`;
    const parts = splitMultipart(request.body, request.headers['content-type'] ?? '')?.parts ?? [];
    const names = JSON.stringify(parts.map((p) => /filename\*?="?([^";\r\n]*)/i.exec(p.head)?.[1] ?? ''));
    const earlier = first.get(scoped);
    if (earlier?.names === names)
      return {
        ...earlier.response,
        headers: { ...earlier.response.headers, 'idempotent-replayed': 'true', 'x-request-id': echoedRequestId(request) },
      };
    const response = await upstream(request);
    if (response.status === 202 && earlier === undefined) first.set(scoped, { names, response });
    return response;
  };
}

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
      'list.search-folds-case',
      'list.search-is-literal',
      'list.search-keeps-accents',
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
    fails: ['list.newest-first', 'list.pages-agree-with-total', 'list.search-by-filename', 'list.status-filter'],
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
        // Parameter names are case-insensitive (RFC 6266): a `Name="files[]"` part is a part too.
        isUpload(req) && !/name="/i.test(req.body.toString('latin1'))
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
  ...soloBoundaryMutants,
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
  {
    name: 'idempotency-compares-names-only',
    defect: 'a repeat under an Idempotency-Key is matched by its filenames alone: the same names with other bytes replay the first upload',
    only: ['upload'],
    fails: ['upload.idempotency-key-reused'],
    rules: ['idempotency.reused-409'],
    mutation: () => ({ respond: replayByNamesAlone() }),
  },
  {
    name: 'keyless-upload-filed-as-undefined',
    defect: 'an upload without an Idempotency-Key is remembered under the key `undefined`: the first upload under that key replays it',
    only: ['upload'],
    fails: ['upload.idempotency-key-as-text'],
    mutation: () => ({ respond: keylessFiledAsUndefined() }),
  },
];
