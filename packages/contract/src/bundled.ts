import { CONTRACT_VALUES } from './generated/contract-values.js';
import { createOperationIndex } from './operation-index.js';
import type { StringRule } from './values.js';

/**
 * The bundled contract's values (operations, list and upload limits, header rules): the one place the
 * servers read them from. Generated from openapi/openapi.yaml by `npm run generate`, so nothing is parsed
 * at start-up and browsers get them too. The whole dereferenced document is `loadBundledContract()`.
 */
export const BUNDLED = CONTRACT_VALUES;

/** The bundled contract's operations, by method and path. */
export const BUNDLED_OPERATIONS = createOperationIndex(CONTRACT_VALUES.operations);

/**
 * A test of a string against a contract rule: its pattern, and its length in code points (as JSON Schema counts).
 * @example const sane = ruleTest(BUNDLED.requestId); sane('abc'); // true
 */
export function ruleTest(rule: StringRule): (value: string | undefined) => value is string {
  const pattern = new RegExp(rule.pattern, 'u');
  return (value): value is string => {
    if (value === undefined || !pattern.test(value)) return false;
    const length = [...value].length;
    return length >= rule.minLength && length <= rule.maxLength;
  };
}
