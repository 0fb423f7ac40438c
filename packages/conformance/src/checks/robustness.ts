import { defineCheck, fail } from '../definitions/check.js';
import { show } from '../definitions/describe.js';
import { type AnswerObservation, type ExpectedAnswer, judgeAnswer } from './answer-judge.js';

/** Requests outside the happy paths. */
export const robustnessChecks = {
  unknownPath: defineCheck<AnswerObservation>({
    id: 'robustness.unknown-path',
    profile: 'full',
    area: 'robustness',
    description: 'An unknown path under /api/v1 is a 404 not_found problem.',
    rules: ['errors.unknown-path-404', 'api.path-prefix'],
    judge: judgeAnswer,
  }),
  wrongMethod: defineCheck<ExpectedAnswer | { kind: 'allow'; allow: string | null; documented: string[]; method: string }>({
    id: 'robustness.wrong-method',
    profile: 'full',
    area: 'robustness',
    description: 'A known path with another method is a 405 method_not_allowed whose Allow header names the documented method.',
    rules: ['errors.wrong-method-405', 'errors.allow-header'],
    judge: (o) => {
      if (o.kind === 'answer') return judgeAnswer(o);
      const { allow, documented, method } = o;
      const listed = (allow ?? '').split(',').map((m) => m.trim().toUpperCase());
      return documented.every((m) => listed.includes(m)) && !listed.includes(method)
        ? undefined
        : fail(`Allow: ${show(allow)}`, `Allow listing ${documented.join(', ')} (and not ${method})`);
    },
  }),
  hostileRejected: defineCheck<AnswerObservation>({
    id: 'robustness.hostile-rejected',
    profile: 'full',
    area: 'robustness',
    description:
      'Malformed requests (truncated multipart, wrong content type, path tricks, odd query values) are 4xx problems and create nothing.',
    rules: ['errors.problem-json', 'upload.all-or-nothing', 'errors.upload-400-causes', 'get.invalid-id-400', 'list.validated-not-clamped'],
    judge: judgeAnswer,
  }),
  requestIdGenerated: defineCheck<{ sent: string | null; ids: Array<string | null> }>({
    id: 'robustness.request-id-generated',
    profile: 'full',
    area: 'robustness',
    description:
      'A request without a usable X-Request-Id (none, over 200 characters, with spaces) gets one the server made for it: two such requests never share an id.',
    rules: ['request-id.generated'],
    // Two requests: a server that answers every such request with one fixed id identifies none of them.
    judge: ({ sent, ids }) =>
      ids.every((x) => x !== null && x !== sent) && new Set(ids).size === ids.length
        ? undefined
        : fail(`X-Request-Ids ${show(ids)}`, `different server-made ids (the requests sent ${sent === null ? 'none' : show(sent)})`),
  }),
} as const;
