import { defineCheck } from './define.js';

/** API-key authentication and tenant isolation. */
export const authChecks = {
  missingKey: defineCheck({
    id: 'auth.missing-key',
    name: 'missingKeyIsUnauthorized',
    profile: 'contract',
    area: 'auth',
    description: 'A request without `x-api-key` is a 401 on every operation.',
  }),
  checkedFirst: defineCheck({
    id: 'auth.checked-first',
    name: 'authIsCheckedFirst',
    profile: 'contract',
    area: 'auth',
    description: 'A keyless request that is also invalid (bad parameter, unknown id) is a 401, not a 400 or 404.',
  }),
  wrongKey: defineCheck({
    id: 'auth.wrong-key',
    name: 'unknownKeyIsUnauthorized',
    profile: 'full',
    area: 'auth',
    description: 'A request with an unknown `x-api-key` (or an empty one) is a 401 on every operation.',
  }),
} as const;

/** What one API key must never see of another's. */
export const tenancyChecks = {
  documentHidden: defineCheck({
    id: 'tenancy.document-hidden',
    name: 'otherTenantsDocumentIsNotFound',
    profile: 'full',
    area: 'tenancy',
    description: "With --second-api-key: one key's document is a 404 for the other key, on read and on retry.",
  }),
  listHidden: defineCheck({
    id: 'tenancy.list-hidden',
    name: 'otherTenantsDocumentIsNotListed',
    profile: 'full',
    area: 'tenancy',
    description: "With --second-api-key: one key's document never appears in the other key's lists, filename searches or content searches.",
  }),
} as const;
