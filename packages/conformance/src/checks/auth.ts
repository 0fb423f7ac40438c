import { defineCheck, fail } from '../definitions/check.js';
import { describeResponse, show } from '../definitions/describe.js';
import type { Exchange } from '../definitions/exchange.js';
import type { WireDocument, WireList } from '../transport/api.js';
import { type AnswerObservation, judgeAnswer } from './answer-judge.js';

/** API-key authentication and tenant isolation. */
export const authChecks = {
  missingKey: defineCheck<AnswerObservation>({
    id: 'auth.missing-key',
    profile: 'contract',
    area: 'auth',
    description: 'A request without `x-api-key` is a 401 on every operation.',
    rules: ['auth.header', 'auth.checked-first', 'security:ApiKeyAuth'],
    judge: judgeAnswer,
  }),
  checkedFirst: defineCheck<AnswerObservation>({
    id: 'auth.checked-first',
    profile: 'contract',
    area: 'auth',
    description:
      'A keyless request that is also invalid (bad parameter, unknown id, a path or method the API does not have) is a 401, not a 400, 404 or 405.',
    rules: ['auth.checked-first'],
    judge: judgeAnswer,
  }),
  wrongKey: defineCheck<AnswerObservation>({
    id: 'auth.wrong-key',
    profile: 'full',
    area: 'auth',
    description: 'A request with an unknown `x-api-key` (or an empty one) is a 401 on every operation.',
    rules: ['auth.checked-first'],
    judge: judgeAnswer,
  }),
  keyExact: defineCheck<AnswerObservation>({
    id: 'auth.key-exact',
    profile: 'full',
    area: 'auth',
    description: 'A key that differs from a valid one only in letter case, or padded with characters a trim() removes (U+00A0), is a 401.',
    rules: ['auth.checked-first'],
    judge: judgeAnswer,
  }),
  keyOnlyInHeader: defineCheck<{ label: string; exchange: Exchange; documented: string }>({
    id: 'auth.key-only-in-header',
    profile: 'contract',
    area: 'auth',
    description:
      "The key counts only where the security scheme puts it (`x-api-key` header): the run's valid key in the query string, `Authorization` (Bearer, ApiKey, Basic), another header, a cookie or an upload's form field, without the header, is a 401.",
    rules: ['auth.header', 'security:ApiKeyAuth'],
    judge: ({ label, exchange, documented }) =>
      exchange.status === 401
        ? undefined
        : fail(describeResponse(exchange), `401: the key was sent only in ${label}, and it counts only in ${documented}`),
  }),
} as const;

/** What one API key must never see of another's. */
export const tenancyChecks = {
  documentHidden: defineCheck<AnswerObservation>({
    id: 'tenancy.document-hidden',
    profile: 'full',
    area: 'tenancy',
    description: "With --second-api-key: one key's document is a 404 for the other key, on read and on retry.",
    rules: ['tenancy.other-is-404', 'get.unknown-404'],
    judge: judgeAnswer,
  }),
  listHidden: defineCheck<{ documents: WireDocument[]; hidden: number; token: string }>({
    id: 'tenancy.list-hidden',
    profile: 'full',
    area: 'tenancy',
    description: "With --second-api-key: one key's document never appears in the other key's lists, filename searches or content searches.",
    rules: ['tenancy.own-documents'],
    judge: ({ documents, hidden, token }) => {
      const leaked = documents.filter((d) => d.document_id === hidden || d.filename.includes(token));
      return leaked.length === 0
        ? undefined
        : fail(
            `the other key sees ${leaked.map((d) => `${d.document_id} ${JSON.stringify(d.filename)}`).join(', ')}`,
            `no trace of document ${hidden}`,
          );
    },
  }),
  totalsScoped: defineCheck<
    | { kind: 'search'; list: WireList; token: string; hidden: number }
    | { kind: 'after-upload'; before: WireList['pagination']; after: WireList['pagination'] }
  >({
    id: 'tenancy.totals-scoped',
    profile: 'full',
    area: 'tenancy',
    description:
      "With --second-api-key: `total` and `total_pages` count only the key's own documents (a search for the other key's document totals 0; the other key's uploads leave this key's total unchanged).",
    rules: ['tenancy.own-documents', 'list.total', 'list.total-pages'],
    judge: (o) => {
      if (o.kind === 'search') {
        const { pagination, documents } = o.list;
        return pagination.total === 0 && pagination.total_pages === 0
          ? undefined
          : fail(
              `total ${pagination.total}, total_pages ${pagination.total_pages}, ${documents.length} documents`,
              `total 0 and total_pages 0: only the first key has a document named ${o.token} (document ${o.hidden})`,
            );
      }
      return o.after.total === o.before.total
        ? undefined
        : fail(
            `the other key's total went from ${o.before.total} to ${o.after.total} when the first key uploaded a document`,
            "unchanged: the first key's uploads are not the other key's documents",
          );
    },
  }),
  idempotencyKeyScoped: defineCheck<{ status: number; mine: number[]; theirs: number[]; parts: number }>({
    id: 'tenancy.idempotency-key-scoped',
    profile: 'full',
    area: 'tenancy',
    description:
      "With --second-api-key: an Idempotency-Key belongs to its API key: the other key sending the same Idempotency-Key and files gets new documents of its own, never the first key's.",
    rules: ['idempotency.scoped-to-api-key'],
    judge: ({ status, mine, theirs, parts }) =>
      status === 202 && theirs.length === parts && theirs.every((id) => !mine.includes(id))
        ? undefined
        : fail(
            `${status} with ids ${show(theirs)} (the first key got ${show(mine)})`,
            "202 with new documents of the other key's own: an Idempotency-Key is scoped to its API key",
          ),
  }),
} as const;
