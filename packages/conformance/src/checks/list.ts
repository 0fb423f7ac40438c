import { defineCheck, type Finding, fail } from '../definitions/check.js';
import { show } from '../definitions/describe.js';
import type { WireDocument, WireList } from '../transport/api.js';
import { type AnswerObservation, judgeAnswer } from './answer-judge.js';
import { sameSet, setText } from './sets.js';

type Pagination = WireList['pagination'];

/** What a filtered or searched list returned, and the run's documents it should have held. */
export interface ExactlyObservation {
  documents: WireDocument[];
  want: Array<Pick<WireDocument, 'document_id'>>;
  /** Which documents `want` is, for the Expected text. */
  what: string;
}

/** The list holds exactly the wanted documents (by id). */
export function exactly({ documents, want, what }: ExactlyObservation): Finding | undefined {
  const got = documents.map((d) => d.document_id);
  const ids = want.map((d) => d.document_id);
  return sameSet(got, ids)
    ? undefined
    : fail(
        `${setText(got)} ${show(
          documents.map((d) => `${d.document_id} ${d.status} ${d.filename}`),
          500,
        )}`,
        `exactly ${setText(ids)}: ${what}`,
      );
}

/** Whether `a` belongs before `b`: created_at descending, then document_id descending. */
export function newerFirst(a: WireDocument, b: WireDocument): boolean {
  const [ta, tb] = [Date.parse(a.created_at), Date.parse(b.created_at)];
  return ta > tb || (ta === tb && a.document_id > b.document_id);
}

/** GET /documents/get_documents. */
export const listChecks = {
  defaults: defineCheck<{ pagination: Pagination; count: number; defaultLimit: number }>({
    id: 'list.defaults',
    profile: 'contract',
    area: 'list',
    description: 'Without parameters the list is page 1 with the documented default limit, and holds at most that many documents.',
    rules: ['list.page-default', 'list.limit-default', 'param:query.page.default', 'param:query.limit.default'],
    judge: ({ pagination, count, defaultLimit }) =>
      pagination.page === 1 && pagination.limit === defaultLimit && count <= defaultLimit
        ? undefined
        : fail(
            `page ${pagination.page}, limit ${pagination.limit}, ${count} documents`,
            `page 1, limit ${defaultLimit}, at most ${defaultLimit} documents`,
          ),
  }),
  defaultLimitApplied: defineCheck<{ pagination: Pagination; count: number; defaultLimit: number }>({
    id: 'list.default-limit-applied',
    profile: 'full',
    area: 'list',
    description: 'When more documents exist than the default limit, a list without `limit` returns exactly the default number.',
    rules: ['list.limit-default', 'param:query.limit.default'],
    judge: ({ pagination, count, defaultLimit }) =>
      count === defaultLimit && pagination.limit === defaultLimit
        ? undefined
        : fail(
            `${count} documents, pagination.limit ${pagination.limit} (total ${pagination.total})`,
            `${defaultLimit} documents and pagination.limit ${defaultLimit}`,
          ),
  }),
  limitRespected: defineCheck<{ limit: number; created: number; pagination: Pagination; count: number }>({
    id: 'list.limit-respected',
    profile: 'full',
    area: 'list',
    description: '`limit` caps the page, a full page holds exactly `limit` documents, and the limit is echoed in `pagination`.',
    rules: ['list.limit-used'],
    // Judged against how many documents the run itself created, never against the server's own total.
    judge: ({ limit, created, pagination, count }) => {
      const want = Math.min(limit, created);
      return count === want && pagination.limit === limit
        ? undefined
        : fail(
            `${count} documents, pagination.limit ${pagination.limit}`,
            `${want} documents (limit ${limit}; the run created ${created} that match), pagination.limit ${limit}`,
          );
    },
  }),
  pagesAgreeWithTotal: defineCheck<
    { kind: 'page'; asked: number; pagination: Pagination; total: number } | { kind: 'walk'; first: Pagination; seen: WireDocument[] }
  >({
    id: 'list.pages-agree-with-total',
    profile: 'full',
    area: 'list',
    description:
      'Walking every page with a fixed limit yields no duplicates, exactly `total` documents, `total_pages` = ceil(total/limit), and each page numbered as asked.',
    rules: ['list.total', 'list.total-pages', 'list.page-echoed'],
    judge: (o) => {
      if (o.kind === 'page')
        return o.pagination.page === o.asked && o.pagination.total === o.total
          ? undefined
          : fail(`page ${o.pagination.page}, total ${o.pagination.total}`, `page ${o.asked}, total ${o.total} (as on page 1)`);
      const { total, total_pages: totalPages, limit, page } = o.first;
      const ids = o.seen.map((d) => d.document_id);
      const unique = new Set(ids).size === ids.length;
      return unique && ids.length === total && totalPages === Math.ceil(total / limit) && page === 1
        ? undefined
        : fail(
            `${ids.length} documents over ${totalPages} pages${unique ? '' : ' with duplicates'}: ${show(ids)}; total ${total}, total_pages ${totalPages}`,
            `${total} distinct documents over ceil(${total}/${limit}) = ${Math.ceil(total / limit)} pages`,
          );
    },
  }),
  pagePastEnd: defineCheck<{ last: Pagination; past: Pagination; count: number }>({
    id: 'list.page-past-end',
    profile: 'full',
    area: 'list',
    description: 'A page past the end is a 200 with no documents and the true totals.',
    rules: ['list.page-past-end'],
    judge: ({ last, past, count }) =>
      count === 0 && past.total === last.total && past.total_pages === last.total_pages && past.page === last.total_pages + 1
        ? undefined
        : fail(`${count} documents, ${show(past)}`, `no documents, ${show({ ...last, page: last.total_pages + 1 })}`),
  }),
  newestFirst: defineCheck<{ documents: WireDocument[] }>({
    id: 'list.newest-first',
    profile: 'full',
    area: 'list',
    description: 'Lists are ordered by created_at descending, then document_id descending, across pages.',
    rules: ['list.newest-first'],
    judge: ({ documents }) => {
      const at = documents.findIndex((d, i) => i > 0 && !newerFirst(documents[i - 1]!, d));
      return at === -1
        ? undefined
        : fail(
            `${show(documents.map((d) => [d.document_id, d.created_at]))} (position ${at} is out of order)`,
            'created_at descending, then document_id descending',
          );
    },
  }),
  statusFilter: defineCheck<
    (ExactlyObservation & { kind?: undefined; status: string }) | { kind: 'alone'; status: string; count: number; pagination: Pagination }
  >({
    id: 'list.status-filter',
    profile: 'full',
    area: 'list',
    description:
      '`status_filter` keeps exactly the documents in that status (combined with `search`), for each status; alone, its first page holds as many documents as its `total` says (up to the limit).',
    rules: ['list.status-filter', 'list.total'],
    judge: (o) => {
      if (o.kind === 'alone') {
        const { total, limit } = o.pagination;
        const want = Math.min(total, limit);
        return o.count === want
          ? undefined
          : fail(
              `${o.count} documents on page 1 of status_filter=${o.status} alone, ${show(o.pagination)}`,
              `min(total ${total}, limit ${limit}) = ${want}: total counts the documents that match the filter`,
            );
      }
      const others = o.documents.filter((d) => d.status !== o.status);
      if (others.length) return fail(show(o.documents.map((d) => `${d.document_id} ${d.status}`)), `only ${o.status}`);
      return exactly(o);
    },
  }),
  searchByFilename: defineCheck<ExactlyObservation>({
    id: 'list.search-by-filename',
    profile: 'full',
    area: 'list',
    description: "`search` finds exactly the run's documents by a unique filename token, case-insensitively.",
    rules: ['list.search', 'list.search-literal', 'list.search-case-folding'],
    judge: exactly,
  }),
  searchByContent: defineCheck<ExactlyObservation>({
    id: 'list.search-by-content',
    profile: 'full',
    area: 'list',
    description:
      "`search` finds a document by a word that exists only inside its PDF (generated at run time), case-insensitively, and by a term of two characters (`¶§`) only its text holds among the run's documents.",
    rules: ['list.search', 'list.search-literal', 'list.search-case-folding'],
    judge: exactly,
  }),
  searchFoldsCase: defineCheck<ExactlyObservation>({
    id: 'list.search-folds-case',
    profile: 'full',
    area: 'list',
    description:
      '`search` folds case beyond ASCII as the contract says (full case folding, İ as i): `strasse` finds `STRAẞE`, `istanbul` finds `İSTANBUL`, `οδοσ` (final σ) finds `ΟΔΟΣΑ`.',
    rules: ['list.search-case-folding'],
    judge: exactly,
  }),
  searchKeepsAccents: defineCheck<ExactlyObservation>({
    id: 'list.search-keeps-accents',
    profile: 'full',
    area: 'list',
    description: '`search` does not ignore accents: `résumé` finds the document named with it, `resume` does not.',
    rules: ['list.search-keeps-marks'],
    judge: exactly,
  }),
  searchIsLiteral: defineCheck<ExactlyObservation>({
    id: 'list.search-is-literal',
    profile: 'full',
    area: 'list',
    description:
      '`search` is a literal substring: SQL (`%`, `_`) and regex (`.`, `.*`) wildcards match nothing extra, and spaces at either end of the term are not trimmed away.',
    rules: ['list.search-literal'],
    judge: exactly,
  }),
  rejectsInvalidParams: defineCheck<AnswerObservation>({
    id: 'list.rejects-invalid-params',
    profile: 'contract',
    area: 'list',
    description: 'Invalid, out-of-range, empty or repeated page/limit/status_filter/search values are a 400, never clamped.',
    rules: ['list.validated-not-clamped', 'errors.validation-400'],
    judge: judgeAnswer,
  }),
  unknownParamsIgnored: defineCheck<AnswerObservation>({
    id: 'list.unknown-params-ignored',
    profile: 'contract',
    area: 'list',
    description: 'Unknown query parameters (cache-busters) are ignored: the list is a 200.',
    rules: ['list.unknown-params-ignored'],
    judge: judgeAnswer,
  }),
} as const;
