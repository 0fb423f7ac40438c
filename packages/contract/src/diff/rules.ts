/** Every rule of the diff, in the order docs list them: the one list docs/contract.md's rule table is generated from. */
import type { DiffRule, Severity } from './model.js';
import { PARAMETER_RULES } from './parameters.js';
import { PATH_RULES } from './paths.js';
import { SCHEMA_RULES } from './schemas.js';

/** The rules, grouped by area. */
export const RULE_AREAS: ReadonlyArray<{ area: string; rules: ReadonlyArray<DiffRule> }> = [
  { area: 'Paths, methods and the base path', rules: Object.values(PATH_RULES) },
  { area: 'Parameters', rules: Object.values(PARAMETER_RULES) },
  { area: 'Schemas (request and response)', rules: Object.values(SCHEMA_RULES) },
];

/** Every rule: id, severity and what it reports. */
export const DIFF_RULES: ReadonlyArray<{ id: string; severity: Severity; description: string }> = RULE_AREAS.flatMap(({ rules }) =>
  rules.map(({ id, severity, description }) => ({ id, severity, description })),
);
