import { defineCheck } from './define.js';

/** API-key authentication and tenant isolation. */
export const authChecks = {
  missingKey: defineCheck({
    id: 'auth.missing-key',
    profile: 'contract',
    area: 'auth',
    description: 'A request without `x-api-key` is a 401 on every operation.',
    rules: [],
  }),
  checkedFirst: defineCheck({
    id: 'auth.checked-first',
    profile: 'contract',
    area: 'auth',
    description: 'A keyless request that is also invalid (bad parameter, unknown id) is a 401, not a 400 or 404.',
    rules: [],
  }),
  wrongKey: defineCheck({
    id: 'auth.wrong-key',
    profile: 'full',
    area: 'auth',
    description: 'A request with an unknown `x-api-key` (or an empty one) is a 401 on every operation.',
    rules: [],
  }),
  keyExact: defineCheck({
    id: 'auth.key-exact',
    profile: 'full',
    area: 'auth',
    description: 'A key that differs from a valid one only in letter case, or padded with characters a trim() removes (U+00A0), is a 401.',
    rules: [],
  }),
} as const;

/** What one API key must never see of another's. */
export const tenancyChecks = {
  documentHidden: defineCheck({
    id: 'tenancy.document-hidden',
    profile: 'full',
    area: 'tenancy',
    description: "With --second-api-key: one key's document is a 404 for the other key, on read and on retry.",
    rules: [],
  }),
  listHidden: defineCheck({
    id: 'tenancy.list-hidden',
    profile: 'full',
    area: 'tenancy',
    description: "With --second-api-key: one key's document never appears in the other key's lists, filename searches or content searches.",
    rules: [],
  }),
  totalsScoped: defineCheck({
    id: 'tenancy.totals-scoped',
    profile: 'full',
    area: 'tenancy',
    description:
      "With --second-api-key: `total` and `total_pages` count only the key's own documents (a search for the other key's document totals 0; the other key's uploads leave this key's total unchanged).",
    rules: [],
  }),
  idempotencyKeyScoped: defineCheck({
    id: 'tenancy.idempotency-key-scoped',
    profile: 'full',
    area: 'tenancy',
    description:
      "With --second-api-key: an Idempotency-Key belongs to its API key: the other key sending the same Idempotency-Key and files gets new documents of its own, never the first key's.",
    rules: [],
  }),
} as const;
