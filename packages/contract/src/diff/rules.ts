/** Every rule of the diff, by area, in the order docs list them: the one list docs/contract.md's rule table is generated from. */
import { LIMIT_RULES } from './limits.js';
import type { DiffRule, Severity } from './model.js';
import { MULTIPART_RULES } from './multipart.js';
import { PARAMETER_RULES } from './parameters.js';
import { PATH_RULES } from './paths.js';
import { REQUEST_BODY_RULES } from './request-body.js';
import { RESPONSE_RULES } from './responses.js';
import { SCHEMA_RULES } from './schemas.js';
import { SECURITY_RULES } from './security.js';

/** The rules, grouped by area. */
export const RULE_AREAS: ReadonlyArray<{ area: string; rules: ReadonlyArray<DiffRule> }> = [
  { area: 'Paths, methods and the base path', rules: Object.values(PATH_RULES) },
  { area: 'Security', rules: Object.values(SECURITY_RULES) },
  { area: 'Parameters (path, query, header)', rules: Object.values(PARAMETER_RULES) },
  { area: 'Request body', rules: Object.values(REQUEST_BODY_RULES) },
  { area: 'Multipart body', rules: Object.values(MULTIPART_RULES) },
  { area: 'Responses (statuses, media types, headers)', rules: Object.values(RESPONSE_RULES) },
  { area: 'Schemas (a request accepts, a response promises)', rules: Object.values(SCHEMA_RULES) },
  { area: '`x-` limits and extensions', rules: Object.values(LIMIT_RULES) },
];

/** Every rule: id, severity and what it reports. */
export const DIFF_RULES: ReadonlyArray<{ id: string; severity: Severity; description: string }> = RULE_AREAS.flatMap(({ rules }) =>
  rules.map(({ id, severity, description }) => ({ id, severity, description })),
);
