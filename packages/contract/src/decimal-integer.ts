/**
 * The spellings of an integer the contract leaves to each reader ("A leading zero (`010`) or a `+` (`+10`)
 * may be read either way ... as the number or as a `400`"): true reads them as the number, false refuses them.
 */
export interface IntegerSpellings {
  /** `010` read as 10 (default true). */
  leadingZero?: boolean;
  /** `+10` read as 10 (default false). */
  plus?: boolean;
}

/**
 * The integer a text spells by the contract's rule ("Integers in paths and queries are written in ASCII
 * decimal digits"), from `min` to `max`; undefined for any other spelling (a fraction `10.0`, an exponent
 * `1e1`, hex `0xa`, spaces, underscores, other digits, a sign, empty), for a leading zero or `+` refused by
 * `spellings`, and outside the range. The one reading of an integer's text: the reference server's
 * parameters, the proxy's judging of a request, and the CLIs' integer options.
 * @example readInteger('42', { min: 1 }) // 42; readInteger('4.5') // undefined; readInteger('+7', { plus: true }) // 7
 */
export function readInteger(text: string, options: IntegerSpellings & { min?: number; max?: number } = {}): number | undefined {
  const { min = 0, max = Number.MAX_SAFE_INTEGER, leadingZero = true, plus = false } = options;
  const digits = plus && text.startsWith('+') ? text.slice(1) : text;
  if (!/^[0-9]+$/.test(digits) || (!leadingZero && digits.length > 1 && digits.startsWith('0'))) return undefined;
  const n = Number(digits);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

/**
 * Reads an integer option's value from `min` to `max` (surrounding spaces aside, as a shell may leave them):
 * "1e3", "0x10", "4.5", "+1" and "" are refused, never coerced.
 * @example readDecimalInteger('42', 1, 100) // 42; readDecimalInteger('1e3', 1) throws RangeError
 */
export function readDecimalInteger(value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = readInteger(value.trim(), { min, max });
  if (n === undefined) {
    throw new RangeError(
      `expected an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, not ${JSON.stringify(value)}.`,
    );
  }
  return n;
}

/**
 * The integer option parsers of a CLI: `integerOption(min, max)` reads a value with {@link readDecimalInteger},
 * its refusal made by `refuse` (the CLI's own usage error).
 * @example const integerOption = integerOptions((m) => new InvalidArgumentError(m)); new Option('--max-files <n>').argParser(integerOption(1, 1000));
 */
export function integerOptions(refuse: (message: string) => Error): (min: number, max?: number) => (value: string) => number {
  return (min, max) => (value) => {
    try {
      return readDecimalInteger(value, min, max);
    } catch (error) {
      throw refuse((error as Error).message);
    }
  };
}
