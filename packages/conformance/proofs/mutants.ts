// Test-only: deliberately broken variants of the reference server, one defect each, as proxy mutations.

import { eachDocument, editJson, joinMultipart, type Mutation, splitMultipart } from '@docproc-kit/test-support/mutation-proxy.js';
import type { ConformanceOptions } from '../src/definitions/config.js';
import {
  echoedRequestId,
  filenameNeverClosesToNaiveParser,
  isList,
  isRetry,
  isUpload,
  json,
  largestPart,
  partCount,
  problem,
  quotedPairsEndFilenames,
  STATUSES,
  searchLike,
  searchLowercaseOnly,
  searchNamesOnly,
  sharedIdempotencyKeys,
  totalsAcrossTenants,
  uploadPartByPart,
  withQuery,
} from './mutant-behaviours.js';

/** One broken server and the verdict the suite must reach about it. */
export interface Mutant {
  name: string;
  /** The defect, as a sentence. */
  defect: string;
  /** The areas run against it (only what can show the defect, to keep a dozen runs fast). */
  only: string[];
  /** Checks that must fail: together they name the defect. */
  fails: string[];
  /** Options beyond the target, the key and the areas. */
  options?: (keys: { primary: string; secondary: string }) => Partial<ConformanceOptions>;
  /** A substring the failure message must contain (for checks shared by several mutants). */
  mentions?: string;
  /**
   * The rules of the contract the defect breaks (ids, or `@tag`): the mutant proves only these of its failed
   * checks' rules. Required with `mentions`: a shared check declares rules this defect does not touch.
   */
  rules?: readonly string[];
  /** Checks the defect keeps from being judged: they must never be reported as passed. */
  notPassed?: string[];
  mutation: (keys: { primary: string; secondary: string }) => Mutation;
  /**
   * Mutants of one group run behind one proxy in one suite run (their mutations composed), to keep the
   * proofs fast: their defects must touch different requests, so each still fails exactly its own checks.
   */
  group?: string;
}

/** The mutants; each `fails` list is exactly the checks whose descriptions name that defect. */
/** Every error answer's problem body edited by `edit` (the status and headers kept). */
function editProblems(edit: (problem: Record<string, unknown>) => void): Mutation {
  return { response: (res) => (res.status >= 400 ? editJson(res, (b) => edit(b as Record<string, unknown>)) : res) };
}

export const mutants: Mutant[] = [
  {
    name: 'auth-ignored',
    defect: 'requests without a key are served',
    only: ['auth'],
    fails: ['auth.missing-key', 'auth.checked-first', 'auth.key-only-in-header'],
    mutation: ({ primary }) => ({
      request: (r) => (r.headers['x-api-key'] === undefined ? { ...r, headers: { ...r.headers, 'x-api-key': primary } } : r),
    }),
  },
  {
    name: 'unknown-key-accepted',
    defect: 'any key is accepted',
    only: ['auth'],
    fails: ['auth.key-exact', 'auth.wrong-key'],
    mutation: ({ primary, secondary }) => ({
      request: (r) =>
        r.headers['x-api-key'] !== undefined && ![primary, secondary].includes(r.headers['x-api-key'])
          ? { ...r, headers: { ...r.headers, 'x-api-key': primary } }
          : r,
    }),
  },
  {
    name: 'tenants-share-documents',
    defect: "the second key sees the first key's documents",
    only: ['tenancy'],
    fails: ['tenancy.document-hidden', 'tenancy.idempotency-key-scoped', 'tenancy.list-hidden', 'tenancy.totals-scoped'],
    options: ({ secondary }) => ({ secondApiKey: secondary }),
    mutation: ({ primary, secondary }) => ({
      request: (r) => (r.headers['x-api-key'] === secondary ? { ...r, headers: { ...r.headers, 'x-api-key': primary } } : r),
    }),
  },
  {
    name: 'idempotency-key-ignored',
    defect: 'uploads ignore the Idempotency-Key header (every retry creates new documents)',
    only: ['upload'],
    fails: ['upload.idempotent-replay', 'upload.idempotency-key-reused', 'upload.idempotency-key-in-use', 'upload.race-same-key'],
    options: () => ({ maxFileBytes: 65_536 }),
    mutation: () => ({
      request: (r) => {
        if (!isUpload(r) || r.headers['idempotency-key'] === undefined) return r;
        const { 'idempotency-key': _, ...headers } = r.headers;
        return { ...r, headers };
      },
    }),
  },
  {
    name: 'upload-answers-200',
    defect: 'a successful upload is a 200 instead of a 202',
    only: ['upload'],
    fails: ['response.status-documented'],
    mentions: '200',
    rules: ['upload.accepted-202'],
    mutation: () => ({ response: (res, req) => (isUpload(req) && res.status === 202 ? { ...res, status: 200 } : res) }),
  },
  {
    name: 'field-renamed',
    defect: 'document_id is sent as id',
    only: ['get'],
    fails: ['response.body-matches-schema'],
    mentions: "must have required property 'document_id'",
    rules: ['@response-body'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            d.id = d.document_id;
            delete d.document_id;
          }),
        ),
    }),
  },
  {
    name: 'ids-as-strings',
    defect: 'document_id is a string',
    only: ['get'],
    fails: ['response.body-matches-schema'],
    mentions: '/document_id must be integer',
    rules: ['@response-body'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            d.document_id = String(d.document_id);
          }),
        ),
    }),
  },
  {
    name: 'total-off-by-one',
    defect: 'pagination.total counts one document too many',
    only: ['list'],
    // status_filter alone: its first page holds fewer documents than its total says.
    fails: ['list.pages-agree-with-total', 'list.status-filter'],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 200
          ? editJson(res, (b) => {
              b.pagination.total += 1;
            })
          : res,
    }),
  },
  {
    name: 'list-answer-unbounded',
    defect: 'a list without parameters answers its page followed by 9 MiB of padding (valid JSON, but no client can hold it)',
    only: ['list'],
    fails: ['response.bounded-body'],
    notPassed: ['list.defaults', 'list.default-limit-applied'],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && !req.url.includes('?') ? { ...res, body: Buffer.concat([res.body, Buffer.alloc(9 * 1024 * 1024, 0x20)]) } : res,
    }),
  },
  {
    name: 'status-filter-ignored',
    defect: 'status_filter is ignored',
    only: ['list'],
    fails: ['list.status-filter'],
    mutation: () => ({
      request: (r) =>
        isList(r)
          ? withQuery(
              r,
              (q) => q.getAll('status_filter').length === 1 && STATUSES.includes(q.get('status_filter')!) && q.delete('status_filter'),
            )
          : r,
    }),
  },
  {
    name: 'search-folds-with-lowercase',
    defect: 'search folds case with toLowerCase only (strasse misses STRAẞE, istanbul misses İSTANBUL)',
    only: ['list'],
    fails: ['list.search-folds-case'],
    mutation: () => ({ respond: (req, upstream) => searchLowercaseOnly(req, upstream) }),
  },
  {
    name: 'search-ignores-accents',
    defect: 'search ignores accents: `resume` finds a document named `résumé`',
    only: ['list'],
    fails: ['list.search-keeps-accents'],
    mutation: () => ({
      request: (r) =>
        isList(r)
          ? withQuery(r, (q) => {
              const term = q.get('search');
              if (term?.endsWith('-resume')) q.set('search', term.replace(/-resume$/, '-résumé'));
            })
          : r,
    }),
  },
  {
    name: 'search-ignores-content',
    defect: 'search matches filenames only (folding their case with toLowerCase)',
    only: ['list'],
    fails: ['list.search-by-content', 'list.search-folds-case'],
    mutation: () => ({ respond: (req, upstream) => searchNamesOnly(req, upstream) }),
  },
  {
    name: 'limit-ignored',
    defect: 'limit is ignored (the default page size is used)',
    only: ['list'],
    fails: ['list.limit-respected'],
    mutation: () => ({
      request: (r) =>
        isList(r)
          ? withQuery(
              r,
              (q) =>
                q.getAll('limit').length === 1 && /^[1-9]\d*$/.test(q.get('limit')!) && Number(q.get('limit')) <= 100 && q.delete('limit'),
            )
          : r,
    }),
  },
  {
    name: 'default-limit-10',
    defect: 'the default page size is 10, though pagination says 20',
    only: ['list'],
    fails: ['list.default-limit-applied'],
    mutation: () => ({
      request: (r) => (isList(r) ? withQuery(r, (q) => !q.has('limit') && q.set('limit', '10')) : r),
      response: (res, req) =>
        isList(req) && res.status === 200
          ? editJson(res, (b) => {
              if (b.pagination.limit === 10) b.pagination.limit = 20;
            })
          : res,
    }),
  },
  {
    name: 'oldest-first',
    defect: 'each page is ordered oldest first',
    only: ['list'],
    fails: ['list.newest-first'],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 200
          ? editJson(res, (b) => {
              b.documents.reverse();
            })
          : res,
    }),
  },
  {
    name: 'never-completes',
    defect: 'documents never leave processing',
    only: ['lifecycle'],
    fails: ['lifecycle.reaches-terminal'],
    options: () => ({ timeoutMs: 1500 }),
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            if (d.status !== 'completed') return;
            Object.assign(d, { status: 'processing', processed_at: null, error: null, ...('content' in d ? { content: null } : {}) });
          }),
        ),
    }),
  },
  {
    name: 'retry-accepted-while-processing',
    defect: 'a retry while processing is accepted',
    only: ['retry'],
    fails: ['retry.conflict-while-processing', 'retry.race-finished'],
    mutation: () => ({
      respond: async (req, upstream) => {
        const res = await upstream(req);
        if (!isRetry(req) || res.status !== 409) return res;
        const doc = await upstream({
          ...req,
          method: 'GET',
          body: Buffer.alloc(0),
          url: req.url.replace('retry_documents', 'get_document'),
        });
        return editJson({ ...doc, status: 202 }, (d) => {
          d.attempts += 1;
        });
      },
    }),
  },
  {
    name: 'retry-keeps-attempts',
    defect: "a retry's answer does not count the new attempt",
    only: ['retry'],
    fails: ['retry.restarts-processing'],
    mutation: () => ({
      response: (res, req) =>
        isRetry(req) && res.status === 202
          ? editJson(res, (d) => {
              d.attempts -= 1;
            })
          : res,
    }),
  },
  {
    name: 'upload-not-atomic',
    defect: 'a multi-file upload stores the good parts before rejecting a bad one',
    only: ['upload'],
    fails: ['upload.all-or-nothing', 'upload.file-too-large', 'upload.too-many-files', 'upload.wrong-field'],
    mutation: () => ({ respond: uploadPartByPart }),
  },
  {
    name: 'filename-mangled',
    defect: 'non-ASCII filenames are decoded as Latin-1',
    only: ['upload'],
    fails: ['upload.echoes-fields', 'upload.filename-rfc5987', 'upload.multipart-forms-accepted'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            d.filename = Buffer.from(String(d.filename), 'utf8').toString('latin1');
          }),
        ),
    }),
  },
  {
    name: 'quoted-pair-ends-filename',
    defect: 'an escaped quote (`\\"`) ends a quoted filename, so the part is lost and the upload refused',
    only: ['upload'],
    fails: ['upload.filename-quoted-pair'],
    mutation: () => ({ request: quotedPairsEndFilenames }),
  },
  {
    name: 'escaped-backslash-escapes-the-quote',
    defect:
      'a quoted filename ending in an escaped backslash (`"x\\\\"`) never ends: the parser takes `\\"` for an escaped quote, loses the part and refuses the upload',
    only: ['upload'],
    fails: ['upload.filename-quoted-pair'],
    mutation: () => ({
      respond: (req, upstream) =>
        filenameNeverClosesToNaiveParser(req) ? Promise.resolve(problem(req, 400, 'invalid_request')) : upstream(req),
    }),
  },
  {
    name: 'errors-as-text',
    defect: 'errors are text/plain',
    only: ['get'],
    fails: ['response.error-is-problem'],
    mutation: () => ({
      response: (res) =>
        res.status >= 400 ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain' }, body: Buffer.from('Not Found') } : res,
    }),
  },
  {
    name: 'errors-without-problem-fields',
    defect: 'errors are application/json without the problem fields',
    only: ['get'],
    fails: ['response.error-is-problem'],
    mutation: () => ({
      response: (res) =>
        res.status >= 400 ? json(res.status, { error: 'request failed' }, { 'x-request-id': res.headers['x-request-id'] ?? 'x' }) : res,
    }),
  },
  {
    name: 'request-id-missing',
    defect: 'responses carry no X-Request-Id',
    only: ['get'],
    fails: ['response.headers-present'],
    mentions: 'X-Request-Id is missing',
    rules: ['request-id.every-response', 'header:X-Request-Id.required'],
    mutation: () => ({
      response: (res) => {
        const headers = { ...res.headers };
        delete headers['x-request-id'];
        return { ...res, headers };
      },
    }),
  },
  {
    name: 'unavailable-without-retry-after',
    defect: "every fourth request is answered the service's own 503 with no Retry-After, so a client cannot know how long to wait",
    only: ['get'],
    fails: ['response.headers-present'],
    mentions: 'Retry-After is missing',
    rules: ['transient.retry-after', 'header:Retry-After.required'],
    mutation: () => {
      let requests = 0;
      return {
        respond: async (request, upstream) =>
          request.url.startsWith('/api/v1/') && ++requests % 4 === 0 ? problem(request, 503, 'service_unavailable') : upstream(request),
      };
    },
  },
  {
    name: 'completed-with-error',
    defect: 'completed documents carry an error',
    only: ['get'],
    fails: ['document.state-consistent'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            if (d.status === 'completed') d.error = { code: 'processing_error', message: 'stale' };
          }),
        ),
    }),
  },
  {
    name: 'unavailable-with-http-date',
    defect:
      "every fourth request is answered the service's own 503 with Retry-After as an HTTP-date, a form the contract's delay-seconds forbids",
    only: ['get'],
    fails: ['response.headers-present'],
    mentions: 'Retry-After: "',
    rules: ['header:Retry-After.pattern', 'transient.retry-after'],
    mutation: () => {
      let requests = 0;
      return {
        respond: async (request, upstream) => {
          if (!request.url.startsWith('/api/v1/') || ++requests % 4 !== 0) return upstream(request);
          const refused = problem(request, 503, 'service_unavailable');
          return { ...refused, headers: { ...refused.headers, 'retry-after': new Date(Date.now() + 1000).toUTCString() } };
        },
      };
    },
  },
  {
    name: 'allow-missing',
    defect: 'a 405 carries no Allow header',
    only: ['robustness'],
    fails: ['response.headers-present'],
    mentions: 'Allow is missing',
    rules: ['header:Allow.required', 'errors.allow-header'],
    mutation: () => ({
      response: (res) => {
        if (res.status !== 405) return res;
        const headers = { ...res.headers };
        delete headers.allow;
        return { ...res, headers };
      },
    }),
  },
  {
    name: 'images-completed-empty',
    defect: 'images are never read by OCR: a JPEG or PNG completes with content "", as if no text were on it',
    only: ['lifecycle'],
    fails: ['lifecycle.scan-read-by-ocr'],
    mentions: 'scanned.png',
    rules: ['processing.ocr', 'document.content-ocr'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            if (String(d.content_type).startsWith('image/') && d.status === 'completed' && 'content' in d) d.content = '';
          }),
        ),
    }),
  },
  {
    name: 'multipart-found-in-a-parameter',
    defect:
      "the upload's media type is read with includes('multipart/form-data'): a text body naming it in a parameter is taken for an upload",
    only: ['robustness'],
    fails: ['robustness.hostile-rejected'],
    rules: ['errors.upload-400-causes'],
    mutation: () => ({
      request: (r) => {
        const type = r.headers['content-type'] ?? '';
        const boundary = /;\s*boundary=([^;\s]+)/i.exec(type)?.[1];
        return isUpload(r) && !/^multipart\/form-data/i.test(type) && type.includes('multipart/form-data') && boundary
          ? { ...r, headers: { ...r.headers, 'content-type': `multipart/form-data; boundary=${boundary}` } }
          : r;
      },
    }),
  },
  {
    name: 'text-part-taken-for-a-file',
    defect: 'a files[] part without a filename (a text field to every parser) is stored as a file with an empty name',
    only: ['robustness'],
    fails: ['robustness.hostile-rejected'],
    rules: ['errors.upload-400-causes'],
    mutation: () => ({
      request: (r) => {
        const split = isUpload(r) ? splitMultipart(r.body, r.headers['content-type'] ?? '') : undefined;
        if (!split?.parts.length || split.parts.some((p) => /filename/i.test(p.head))) return r;
        const parts = split.parts.map((p) => ({ ...p, head: p.head.replace(/(name="files\[\]")/i, '$1; filename="upload"') }));
        return { ...r, body: joinMultipart(split.boundary, parts) };
      },
    }),
  },
  {
    name: 'crashes-on-json-upload',
    defect: 'an upload with a JSON body is a 500',
    only: ['robustness'],
    fails: ['response.never-5xx'],
    mutation: () => ({
      respond: (req, upstream) =>
        isUpload(req) && (req.headers['content-type'] ?? '').startsWith('application/json')
          ? Promise.resolve({
              status: 500,
              headers: { 'content-type': 'application/problem+json', 'x-request-id': echoedRequestId(req) },
              body: Buffer.from(
                JSON.stringify({
                  type: 'about:blank',
                  title: 'Internal Server Error',
                  status: 500,
                  detail: 'boom',
                  code: 'internal_error',
                }),
              ),
            })
          : upstream(req),
    }),
  },
  {
    name: 'wrong-method-is-404',
    defect: 'a wrong method is a 404 instead of a 405',
    only: ['robustness'],
    fails: ['response.status-documented'],
    mentions: '404 application/problem+json',
    rules: ['errors.wrong-method-405'],
    mutation: () => ({
      response: (res) =>
        res.status === 405
          ? json(
              404,
              { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no route', code: 'not_found' },
              { 'content-type': 'application/problem+json', 'x-request-id': res.headers['x-request-id'] ?? 'x' },
            )
          : res,
    }),
  },
  {
    name: 'problem-request-id-stale',
    defect: "problems carry another request's id in `request_id` (a cached body)",
    only: ['get'],
    fails: ['response.problem-refers-to-request'],
    mutation: () =>
      editProblems((b) => {
        b.request_id = 'stale-request-id';
      }),
  },
  {
    name: 'problem-title-is-code',
    defect: 'problems are titled with their error code (`not_found`), not the reason phrase of their status',
    only: ['get'],
    fails: ['response.problem-title-and-detail'],
    mentions: 'title "',
    rules: ['problem.title-reason-phrase'],
    mutation: () =>
      editProblems((b) => {
        b.title = b.code;
      }),
  },
  {
    name: 'problem-detail-empty',
    defect: 'problems carry an empty `detail`',
    only: ['get'],
    fails: ['response.problem-title-and-detail'],
    mentions: 'detail ""',
    rules: ['problem.detail-for-humans'],
    mutation: () =>
      editProblems((b) => {
        b.detail = '';
      }),
  },
  {
    name: 'proxy-page-strict',
    defect: 'a proxy in front answers unknown documents with its own HTML 404 (Server: nginx, no X-Request-Id; run with --strict)',
    only: ['get'],
    fails: ['response.answered-by-service'],
    mentions: 'made by nginx itself',
    rules: ['request-id.every-response', 'request-id.echoed'],
    options: () => ({ strict: true }),
    mutation: () => ({
      response: (res) =>
        res.status === 404
          ? {
              status: 404,
              headers: { 'content-type': 'text/html', server: 'nginx' },
              body: Buffer.from(
                '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
              ),
            }
          : res,
    }),
  },
  {
    name: 'undocumented-property-strict',
    defect: 'documents carry an undocumented property (run with --strict)',
    only: ['get'],
    fails: ['response.no-undocumented-properties'],
    options: () => ({ strict: true }),
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            d.storage_path = '/var/data/x';
          }),
        ),
    }),
  },
  {
    name: 'search-is-sql-like',
    defect: 'search treats % and _ as wildcards',
    only: ['list'],
    fails: ['list.search-is-literal'],
    mutation: () => ({ respond: searchLike }),
  },
  {
    name: 'past-end-repeats-last-page',
    defect: 'a page past the end repeats the last page',
    only: ['list'],
    fails: ['list.page-past-end'],
    mutation: () => ({
      respond: async (req, upstream) => {
        const res = await upstream(req);
        if (!isList(req) || res.status !== 200) return res;
        const body = JSON.parse(res.body.toString()) as { documents: unknown[]; pagination: { page: number; total_pages: number } };
        if (body.documents.length > 0 || body.pagination.total_pages === 0 || body.pagination.page <= body.pagination.total_pages)
          return res;
        const last = await upstream(withQuery(req, (q) => q.set('page', String(body.pagination.total_pages))));
        return editJson(last, (b) => {
          b.pagination.page = body.pagination.page;
        });
      },
    }),
  },
  {
    name: 'content-loses-text',
    defect: 'completed documents have empty content',
    only: ['lifecycle'],
    // Its scans complete empty too, which the OCR check sees.
    fails: ['lifecycle.completed-has-content', 'lifecycle.scan-read-by-ocr'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            if (d.status === 'completed' && 'content' in d) d.content = '';
          }),
        ),
    }),
  },
  {
    name: 'failure-misclassified',
    defect: 'an unreadable file fails as processing_error',
    only: ['lifecycle'],
    fails: ['lifecycle.failed-has-error'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            if (d.status === 'failed') d.error = { code: 'processing_error', message: 'try again' };
          }),
        ),
    }),
  },
  {
    name: 'read-differs-from-upload',
    defect: 'a read document reports another size than its upload',
    only: ['get'],
    fails: ['get.matches-upload'],
    mutation: () => ({
      response: (res, req) =>
        req.method === 'GET' && req.url.includes('/get_document/') && res.status === 200
          ? editJson(res, (d) => {
              d.size_bytes += 1;
            })
          : res,
    }),
  },
  {
    name: 'validation-without-errors',
    defect: '400s do not say which parameter was wrong',
    only: ['get'],
    fails: ['validation.names-parameter'],
    mutation: () => ({
      response: (res) =>
        res.status === 400
          ? editJson(res, (b) => {
              delete b.errors;
            })
          : res,
    }),
  },
  {
    name: 'allow-lists-every-method',
    defect: "a 405's Allow header lists every method",
    only: ['robustness'],
    fails: ['robustness.wrong-method'],
    mutation: () => ({
      response: (res) => (res.status === 405 ? { ...res, headers: { ...res.headers, allow: 'GET, POST, PUT, PATCH, DELETE' } } : res),
    }),
  },
  {
    name: 'retried-text-lost',
    defect: 'a retried document completes without its text',
    only: ['retry'],
    fails: ['retry.finishes-again'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            if (d.status === 'completed' && Number(d.attempts) > 1 && 'content' in d) d.content = '';
          }),
        ),
    }),
  },
  {
    name: 'hangs-on-unknown-id',
    defect: 'reading an unknown id never answers',
    only: ['get'],
    fails: ['http.responds'],
    options: () => ({ requestTimeoutMs: 1000 }),
    mutation: () => ({
      respond: (req, upstream) =>
        req.url.endsWith(`/get_document/${Number.MAX_SAFE_INTEGER}`) ? new Promise<never>(() => {}) : upstream(req),
    }),
  },
  {
    name: 'request-id-constant',
    defect: 'requests without a usable X-Request-Id all get the same one',
    only: ['robustness'],
    fails: ['robustness.request-id-generated'],
    mutation: () => ({
      response: (res, req) =>
        /^[\x21-\x7E]{1,200}$/.test(req.headers['x-request-id'] ?? '')
          ? res
          : { ...res, headers: { ...res.headers, 'x-request-id': 'generated' } },
    }),
  },
  {
    name: 'request-id-made-with-spaces',
    defect: 'the X-Request-Id a server makes for a request without a usable one has spaces in it',
    only: ['robustness'],
    fails: ['response.headers-present'],
    mentions: 'X-Request-Id: "made ',
    rules: ['header:X-Request-Id.pattern'],
    mutation: () => {
      let made = 0;
      return {
        response: (res, req) =>
          /^[\x21-\x7E]{1,200}$/.test(req.headers['x-request-id'] ?? '')
            ? res
            : { ...res, headers: { ...res.headers, 'x-request-id': `made ${++made}` } },
      };
    },
  },
  {
    name: 'request-id-overlong',
    defect: 'the X-Request-Id a server makes for a request without a usable one is a 250-character trace id',
    only: ['robustness'],
    fails: ['response.headers-present'],
    mentions: 'X-Request-Id: "trace-',
    rules: ['header:X-Request-Id.maxLength'],
    mutation: () => ({
      response: (res, req) =>
        /^[\x21-\x7E]{1,200}$/.test(req.headers['x-request-id'] ?? '')
          ? res
          : { ...res, headers: { ...res.headers, 'x-request-id': `trace-${'0123456789'.repeat(25)}`.slice(0, 250) } },
    }),
  },
  {
    name: 'request-id-empty',
    defect: 'a request without a usable X-Request-Id is answered with an empty one',
    only: ['robustness'],
    fails: ['response.headers-present'],
    rules: ['header:X-Request-Id.minLength'],
    mutation: () => ({
      response: (res, req) =>
        /^[\x21-\x7E]{1,200}$/.test(req.headers['x-request-id'] ?? '') ? res : { ...res, headers: { ...res.headers, 'x-request-id': '' } },
    }),
  },
  {
    name: 'limit-clamped',
    defect: 'a limit over the maximum is clamped instead of refused',
    only: ['list'],
    fails: ['list.rejects-invalid-params'],
    mutation: () => ({
      request: (r) =>
        isList(r) ? withQuery(r, (q) => /^\d+$/.test(q.get('limit') ?? '') && Number(q.get('limit')) > 100 && q.set('limit', '100')) : r,
    }),
  },
  {
    name: 'search-case-sensitive',
    defect: 'search is case-sensitive (and matches names only)',
    only: ['list'],
    fails: ['list.search-by-filename', 'list.search-by-content', 'list.search-folds-case'],
    mutation: () => ({
      respond: (req, upstream) =>
        searchNamesOnly(req, upstream, (filename) => filename.includes(new URL(req.url, 'http://x').searchParams.get('search') ?? '')),
    }),
  },
  {
    name: 'huge-ids-clamped',
    defect: 'ids beyond 2^53-1 are read as the largest id instead of refused',
    only: ['get'],
    fails: ['get.rejects-invalid-id'],
    mutation: () => ({
      request: (r) => ({
        ...r,
        url: r.url.replace(/\/get_document\/\d{16,}$/, (m) =>
          BigInt(m.split('/').pop()!) > BigInt(Number.MAX_SAFE_INTEGER) ? `/get_document/${Number.MAX_SAFE_INTEGER}` : m,
        ),
      }),
    }),
  },
  {
    name: 'unknown-field-ignored',
    defect: 'parts under other field names are silently dropped',
    only: ['upload'],
    fails: ['upload.wrong-field'],
    mutation: () => ({
      request: (r) => {
        const split = isUpload(r) ? splitMultipart(r.body, r.headers['content-type'] ?? '') : undefined;
        const kept = split?.parts.filter((p) => p.head.includes('name="files[]"'));
        return split && kept!.length > 0 && kept!.length < split.parts.length ? { ...r, body: joinMultipart(split.boundary, kept!) } : r;
      },
    }),
  },
  {
    name: 'unsupported-file-skipped',
    defect: 'files that are not PDF, JPEG or PNG are skipped instead of refused',
    only: ['upload'],
    fails: ['upload.unsupported-type', 'upload.all-or-nothing'],
    mutation: () => ({
      respond: async (req, upstream) => {
        const split = isUpload(req) ? splitMultipart(req.body, req.headers['content-type'] ?? '') : undefined;
        if (!split) return upstream(req);
        const known = (d: Buffer) => d.subarray(0, 5).toString('latin1') === '%PDF-' || d[0] === 0x89 || (d[0] === 0xff && d[1] === 0xd8);
        // Only file parts are skipped: a text field is no file of an unsupported type.
        const kept = split.parts.filter((p) => known(p.data) || !/filename\*?=/i.test(p.head));
        if (kept.length === split.parts.length) return upstream(req);
        // With nothing left, store the file anyway (as a PDF): the point is that it is not refused.
        const parts = kept.length > 0 ? kept : split.parts.map((p) => ({ ...p, data: Buffer.from('%PDF-1.7\n%%EOF\n') }));
        return upstream({ ...req, body: joinMultipart(split.boundary, parts) });
      },
    }),
  },
  {
    name: 'totals-count-other-tenants',
    defect: "pagination.total counts other tenants' documents too",
    only: ['tenancy'],
    fails: ['tenancy.totals-scoped'],
    options: ({ secondary }) => ({ secondApiKey: secondary }),
    mutation: ({ primary, secondary }) => ({ respond: (req, upstream) => totalsAcrossTenants(req, upstream, [primary, secondary]) }),
  },
  {
    name: 'idempotency-keys-shared-across-tenants',
    defect: 'an Idempotency-Key is shared by every API key (a data leak)',
    only: ['tenancy'],
    fails: ['tenancy.idempotency-key-scoped'],
    options: ({ secondary }) => ({ secondApiKey: secondary }),
    mutation: () => ({ respond: sharedIdempotencyKeys() }),
  },
  {
    name: 'replay-without-header',
    defect: 'a replayed upload does not say it is one',
    only: ['upload'],
    fails: ['upload.replay-header'],
    mutation: () => ({
      response: (res) => {
        const headers = { ...res.headers };
        delete headers['idempotent-replayed'];
        return { ...res, headers };
      },
    }),
  },
  {
    name: 'filename-basename',
    defect: 'filenames are cut to their last path segment',
    only: ['upload'],
    // A backslash is a path separator to it, so the quoted `back\\slash.pdf` is cut too.
    fails: ['upload.filename-quoted-pair', 'upload.filename-verbatim'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            d.filename = String(d.filename).split(/[\\/]/).pop();
          }),
        ),
    }),
  },
  {
    name: 'key-compared-loosely',
    defect: 'x-api-key is trimmed and compared case-insensitively',
    only: ['auth'],
    fails: ['auth.key-exact'],
    mutation: ({ primary, secondary }) => ({
      request: (r) => {
        const loose = (r.headers['x-api-key'] ?? '').trim().toLowerCase();
        const known = [primary, secondary].find((k) => k.toLowerCase() === loose);
        return known && r.headers['x-api-key'] !== known ? { ...r, headers: { ...r.headers, 'x-api-key': known } } : r;
      },
    }),
  },
  {
    name: 'max-files-exclusive',
    defect: 'exactly --max-files files are refused (413)',
    only: ['upload'],
    fails: ['upload.files-at-limit'],
    options: () => ({ maxFiles: 5 }),
    mutation: () => ({
      respond: (req, upstream) =>
        isUpload(req) && partCount(req) >= 5 ? Promise.resolve(problem(req, 413, 'too_many_files')) : upstream(req),
    }),
  },
  {
    name: 'max-file-bytes-exclusive',
    defect: 'a file of exactly --max-file-bytes is refused (413)',
    only: ['upload'],
    fails: ['upload.file-at-limit'],
    options: () => ({ maxFileBytes: 65_536 }),
    mutation: () => ({
      respond: (req, upstream) =>
        isUpload(req) && largestPart(req) >= 65_536 ? Promise.resolve(problem(req, 413, 'file_too_large')) : upstream(req),
    }),
  },
  {
    name: 'past-end-is-404',
    defect: 'a page past the end is a 404',
    only: ['list'],
    fails: ['response.status-documented'],
    mentions: '404',
    rules: ['list.page-past-end'],
    notPassed: ['list.page-past-end'],
    mutation: () => ({
      response: (res, req) => {
        if (!isList(req) || res.status !== 200) return res;
        const body = JSON.parse(res.body.toString()) as { documents: unknown[]; pagination: { page: number; total_pages: number } };
        return body.documents.length === 0 && body.pagination.page > Math.max(1, body.pagination.total_pages)
          ? problem(req, 404, 'not_found')
          : res;
      },
    }),
  },
];
