// Strict integer reading for path and query values: ASCII digits, optional leading '+', within a range.
const DIGITS = /^\+?[0-9]+$/;

export function readInteger(text: string, min: number, max: number): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) return undefined;
  return value;
}

export function countCodePoints(text: string): number {
  return [...text].length;
}
