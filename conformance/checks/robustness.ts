import { defineCheck } from './define.js';

/** Requests outside the happy paths. */
export const robustnessChecks = {
  unknownPath: defineCheck({
    id: 'robustness.unknown-path',
    profile: 'full',
    area: 'robustness',
    description: 'An unknown path under /api/v1 is a 404 not_found problem.',
    rules: [],
  }),
  wrongMethod: defineCheck({
    id: 'robustness.wrong-method',
    profile: 'full',
    area: 'robustness',
    description: 'A known path with another method is a 405 method_not_allowed whose Allow header names the documented method.',
    rules: [],
  }),
  hostileRejected: defineCheck({
    id: 'robustness.hostile-rejected',
    profile: 'full',
    area: 'robustness',
    description:
      'Malformed requests (truncated multipart, wrong content type, path tricks, odd query values) are 4xx problems and create nothing.',
    rules: [],
  }),
  requestIdGenerated: defineCheck({
    id: 'robustness.request-id-generated',
    profile: 'full',
    area: 'robustness',
    description:
      'A request without a usable X-Request-Id (none, over 200 characters, with spaces) gets one the server made for it: two such requests never share an id.',
    rules: [],
  }),
} as const;
