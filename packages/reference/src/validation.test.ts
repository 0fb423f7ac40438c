import { describe, expect, it } from 'vitest';
import { parseDocumentId, parseListQuery } from './validation.js';

// Integers travel as text: only their plain decimal spelling is one. Each of these is a number to some
// lenient parser (Number(), int(), strtol with base 0, coercing validators), and a 400 here.
const LENIENT = ['+10', ' 10', '10 ', '010', '10.0', '1e1', '0xa', '1_0', '١٠', '１０', ''];

describe('integer parameters are plain decimal integers', () => {
  it.each(LENIENT)('refuses page and limit spelled %j', (spelling) => {
    expect(() => parseListQuery({ page: spelling })).toThrow(/invalid parameter/i);
    expect(() => parseListQuery({ limit: spelling })).toThrow(/invalid parameter/i);
  });

  it.each(LENIENT)('refuses a document id spelled %j', (spelling) => {
    expect(() => parseDocumentId(spelling)).toThrow();
  });

  it('accepts the plain spelling, up to 2^53-1 for ids and pages', () => {
    expect(parseListQuery({ page: '10', limit: '10' })).toMatchObject({ page: 10, limit: 10 });
    expect(parseListQuery({ page: String(Number.MAX_SAFE_INTEGER) }).page).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseDocumentId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => parseDocumentId('0')).toThrow();
  });
});
