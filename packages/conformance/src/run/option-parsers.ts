import { decimalIntegerOption } from '@docproc-kit/contract/decimal-integer.js';
import { InvalidArgumentError } from 'commander';

/**
 * An option parser for integers from `min` to `max` (plain decimal digits only, never coerced): a refusal
 * is commander's usage error.
 * @example new Option('--max-files <n>').argParser(integerOption(1, 1000));
 */
export function integerOption(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return decimalIntegerOption(min, max, (message) => new InvalidArgumentError(message));
}
