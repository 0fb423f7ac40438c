/**
 * Reads an integer from `min` to `max` written in plain decimal digits only: "1e3", "0x10", "4.5", "+1" and
 * "" are refused, never coerced. Every integer option of the CLIs reads its value with it (each turns the
 * refusal into its own usage error).
 * @example readDecimalInteger('42', 1, 100) // 42; readDecimalInteger('1e3', 1) throws RangeError
 */
export function readDecimalInteger(value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new RangeError(
      `expected an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, not ${JSON.stringify(value)}.`,
    );
  }
  return n;
}

/**
 * A parser of option values for {@link readDecimalInteger}, its refusal made by `refuse` (each CLI's own
 * usage error).
 * @example const integerOption = (min: number, max?: number) => decimalIntegerOption(min, max, (m) => new InvalidArgumentError(m));
 */
export function decimalIntegerOption(min: number, max: number | undefined, refuse: (message: string) => Error): (value: string) => number {
  return (value) => {
    try {
      return readDecimalInteger(value, min, max);
    } catch (error) {
      throw refuse((error as Error).message);
    }
  };
}
