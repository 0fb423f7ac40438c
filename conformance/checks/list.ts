import { defineCheck } from './define.js';

/** GET /documents/get_documents. */
export const listChecks = {
  defaults: defineCheck({
    id: 'list.defaults',
    profile: 'contract',
    area: 'list',
    description: 'Without parameters the list is page 1 with the documented default limit, and holds at most that many documents.',
    rules: [],
  }),
  defaultLimitApplied: defineCheck({
    id: 'list.default-limit-applied',
    profile: 'full',
    area: 'list',
    description: 'When more documents exist than the default limit, a list without `limit` returns exactly the default number.',
    rules: [],
  }),
  limitRespected: defineCheck({
    id: 'list.limit-respected',
    profile: 'full',
    area: 'list',
    description: '`limit` caps the page, a full page holds exactly `limit` documents, and the limit is echoed in `pagination`.',
    rules: [],
  }),
  pagesAgreeWithTotal: defineCheck({
    id: 'list.pages-agree-with-total',
    profile: 'full',
    area: 'list',
    description:
      'Walking every page with a fixed limit yields no duplicates, exactly `total` documents, `total_pages` = ceil(total/limit), and each page numbered as asked.',
    rules: [],
  }),
  pagePastEnd: defineCheck({
    id: 'list.page-past-end',
    profile: 'full',
    area: 'list',
    description: 'A page past the end is a 200 with no documents and the true totals.',
    rules: [],
  }),
  newestFirst: defineCheck({
    id: 'list.newest-first',
    profile: 'full',
    area: 'list',
    description: 'Lists are ordered by created_at descending, then document_id descending, across pages.',
    rules: [],
  }),
  statusFilter: defineCheck({
    id: 'list.status-filter',
    profile: 'full',
    area: 'list',
    description: '`status_filter` keeps exactly the documents in that status (combined with `search`), for each status.',
    rules: [],
  }),
  searchByFilename: defineCheck({
    id: 'list.search-by-filename',
    profile: 'full',
    area: 'list',
    description: "`search` finds exactly the run's documents by a unique filename token, case-insensitively.",
    rules: [],
  }),
  searchByContent: defineCheck({
    id: 'list.search-by-content',
    profile: 'full',
    area: 'list',
    description: '`search` finds a document by a word that exists only inside its PDF (generated at run time), case-insensitively.',
    rules: [],
  }),
  searchIsLiteral: defineCheck({
    id: 'list.search-is-literal',
    profile: 'full',
    area: 'list',
    description: '`search` is a literal substring: SQL (`%`, `_`) and regex (`.`, `.*`) wildcards match nothing extra.',
    rules: [],
  }),
  rejectsInvalidParams: defineCheck({
    id: 'list.rejects-invalid-params',
    profile: 'contract',
    area: 'list',
    description: 'Invalid, out-of-range, empty or repeated page/limit/status_filter/search values are a 400, never clamped.',
    rules: [],
  }),
  unknownParamsIgnored: defineCheck({
    id: 'list.unknown-params-ignored',
    profile: 'contract',
    area: 'list',
    description: 'Unknown query parameters (cache-busters) are ignored: the list is a 200.',
    rules: [],
  }),
} as const;
