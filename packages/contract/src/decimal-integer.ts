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
