// The boundary cases of every constraint the contract states on a request: read from the document the run
// judges against, so a limit changed in the contract changes the cases with no code change. One rule per
// (parameter, keyword), each a check of its own (`boundary.<parameter>-<rule>`).
//
// Integers travel as text. The contract's `type: integer` is read as the plain decimal spelling of one
// (RFC 8259's `int`: an optional minus, ASCII digits, no leading zero): a sign, spaces, underscores,
// an exponent, hex, a fraction, a leading zero, other digits or nothing at all are refused, though
// lenient parsers (`Number()`, `int()`, `strtol`, coercing validators) read a number in them. Lengths are
// counted in code points, as JSON Schema counts them. The prose's rule that text holds no NUL adds one rule
// per text it names (boundary-nul.ts).

import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { filenameMaxLength } from '../rules/contract-facts.js';
import { integerRules } from './boundary-integers.js';
import { filenameNulRule, queryNulRule } from './boundary-nul.js';
import { enumRule, filenameRule, stringRules } from './boundary-strings.js';
import type { BoundaryLocation, BoundaryRule, BoundarySchema as Schema } from './boundary-types.js';

export { filenameMaxLength } from '../rules/contract-facts.js';
export { lenientSpellings } from './boundary-integers.js';
export type { BoundaryCase, BoundaryLocation, BoundaryRule } from './boundary-types.js';

/**
 * Every boundary rule of `contract`'s request parameters and upload filename. `prefix` starts every
 * string value that may be stored or searched (a run token), so what the cases create can be found.
 * @example boundaryRules(contract, 'conformance-run1-boundary').find((r) => r.checkId === 'boundary.limit-maximum')?.cases
 */
export function boundaryRules(contract: Contract, prefix = 'conformance'): BoundaryRule[] {
  const byParameter = new Map<string, { parameter: OpenAPIV3_1.ParameterObject; operations: string[] }>();
  for (const op of contract.operations)
    for (const p of (op.definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
      const key = `${p.in}.${p.name}`;
      const entry = byParameter.get(key) ?? { parameter: p, operations: [] };
      entry.operations.push(op.operationId);
      byParameter.set(key, entry);
    }
  const rules: BoundaryRule[] = [];
  for (const [key, { parameter, operations }] of byParameter) {
    const location = parameter.in as BoundaryLocation;
    if (!['query', 'path', 'header'].includes(location)) continue;
    const schema = (parameter.schema ?? {}) as Schema;
    const ruleKey = `param:${key}`;
    if (schema.type === 'integer') rules.push(...integerRules(parameter.name, location, operations, schema, ruleKey));
    else if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string'))
      rules.push(enumRule(parameter.name, location, operations, schema.enum as string[], ruleKey));
    else if (schema.type === 'string') {
      rules.push(...stringRules(parameter.name, location, operations, schema, ruleKey, prefix));
      const nul = location === 'query' ? queryNulRule(parameter.name, operations, prefix) : undefined;
      if (nul) rules.push(nul);
    }
  }
  const filenameMax = filenameMaxLength(contract);
  if (filenameMax !== undefined) rules.push(filenameRule(filenameMax, prefix));
  if (contract.operation('uploadDocuments')) rules.push(filenameNulRule(prefix));
  return rules;
}
