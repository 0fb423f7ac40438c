import { InvalidArgumentError } from 'commander';

/**
 * An option parser for integers from `min` to `max`: plain decimal digits only ("1e3", "0x10", "4.5" and
 * "" are usage errors, never coerced). Every integer option of the CLIs uses it.
 * @example new Option('--max-files <n>').argParser(integerOption(1, 1000));
 */
export function integerOption(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(
        `expected an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, not ${JSON.stringify(value)}.`,
      );
    }
    return n;
  };
}
