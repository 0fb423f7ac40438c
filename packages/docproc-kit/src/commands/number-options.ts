import { integerOptions } from '@docproc-kit/contract/decimal-integer.js';
import { InvalidArgumentError } from 'commander';

/** An option parser for integers from `min` to `max` (plain decimal digits only): a refusal is a usage error. */
export const integerOption = integerOptions((message) => new InvalidArgumentError(message));

/** A TCP port (0 picks a free one). */
export const portOption = integerOption(0, 65_535);
