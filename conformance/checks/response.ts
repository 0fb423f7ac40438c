import { defineCheck } from './define.js';

/** Checks run on every response the suite receives, whatever the scenario. */
export const responseChecks = {
  responds: defineCheck({
    id: 'http.responds',
    profile: 'contract',
    area: 'response',
    description: 'Every request gets an HTTP response within the request timeout (no reset connection, no hang).',
  }),
  neverServerError: defineCheck({
    id: 'response.never-5xx',
    profile: 'contract',
    area: 'response',
    description: 'No request the suite sends, valid or hostile, makes the target answer 5xx.',
  }),
  statusDocumented: defineCheck({
    id: 'response.status-documented',
    profile: 'contract',
    area: 'response',
    description: 'The status is one the contract documents for the operation (404/405 for unknown paths and methods).',
  }),
  errorIsProblem: defineCheck({
    id: 'response.error-is-problem',
    profile: 'contract',
    area: 'response',
    description: 'Every 4xx/5xx is application/problem+json with a JSON object body whose `status` equals the HTTP status.',
  }),
  contentTypeDocumented: defineCheck({
    id: 'response.content-type-documented',
    profile: 'contract',
    area: 'response',
    description: 'The Content-Type is a media type the contract documents for that status.',
  }),
  headersPresent: defineCheck({
    id: 'response.headers-present',
    profile: 'contract',
    area: 'response',
    description: 'Every required documented header (X-Request-Id, Allow, ...) is present, and every documented header matches its schema.',
  }),
  bodyMatchesSchema: defineCheck({
    id: 'response.body-matches-schema',
    profile: 'contract',
    area: 'response',
    description: 'The body is valid JSON that validates against the documented schema (ajv, JSON Schema 2020-12, formats on).',
  }),
  errorCodeDocumented: defineCheck({
    id: 'response.error-code-documented',
    profile: 'contract',
    area: 'response',
    description: "A problem's `code` is one the contract's examples give for that status, so clients can switch on it.",
  }),
  noUndocumentedProperties: defineCheck({
    id: 'response.no-undocumented-properties',
    profile: 'contract',
    area: 'response',
    description: 'Bodies carry no properties the schema does not declare (a warning; a failure with --strict).',
  }),
  requestIdEchoed: defineCheck({
    id: 'response.request-id-echoed',
    profile: 'full',
    area: 'response',
    description: 'The X-Request-Id the suite sends (a sane one) comes back unchanged, so logs can be joined.',
  }),
  documentStateConsistent: defineCheck({
    id: 'document.state-consistent',
    profile: 'contract',
    area: 'response',
    description:
      'Every document agrees with its status: `error` only when failed, `content` only when completed, `processed_at` null exactly while processing, timestamps not before `created_at`.',
  }),
} as const;
