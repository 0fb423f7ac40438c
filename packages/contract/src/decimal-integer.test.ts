import { describe, expect, it } from 'vitest';
import { readDecimalInteger, readInteger } from './decimal-integer.js';

describe("an integer's text, read by the contract's rule", () => {
  it.each([
    ['42', 42],
    ['0', 0],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('%s is the number %d', (text, n) => {
    expect(readInteger(text)).toBe(n);
  });

  it.each(['10.0', '1e1', '0xa', '1_0', ' 1', '1 ', '١٠', '', '-1', '+', '9007199254740992'])(
    '%j is no integer (the contract: "any other spelling ... is a 400")',
    (text) => {
      expect(readInteger(text, { plus: true })).toBeUndefined();
    },
  );

  it.each([
    ['010', {}, 10],
    ['010', { leadingZero: false }, undefined],
    ['+10', {}, undefined],
    ['+10', { plus: true }, 10],
    ['0', { leadingZero: false }, 0],
  ])('%s, where the contract lets a reader choose (%j), is %s', (text, spellings, n) => {
    expect(readInteger(text, spellings)).toBe(n);
  });

  it('outside the range asked for is no integer', () => {
    expect(readInteger('0', { min: 1 })).toBeUndefined();
    expect(readInteger('101', { min: 1, max: 100 })).toBeUndefined();
  });

  it("a CLI option's value may carry spaces around it; a refusal names the range", () => {
    expect(readDecimalInteger(' 7 ', 1)).toBe(7);
    expect(() => readDecimalInteger('1e3', 1, 100)).toThrow('expected an integer from 1 to 100, not "1e3".');
  });
});
