import { parse } from 'node:querystring';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQueryString } from './query-string.js';

describe('parseQueryString reads a query as querystring.parse does', () => {
  it.each([
    '',
    'limit=20',
    'limit=20&page=2',
    'a=1&a=2&a=3',
    'a&b=&=c&&d=e=f',
    '__proto__=x&constructor=y',
    'search=a+b&x=%20%zz',
    `${'k=v&'.repeat(300)}z=1`,
  ])('%j', (qs) => {
    expect(parseQueryString(qs)).toEqual(parse(qs));
  });

  it.each([
    ['plain', `${'unknown=1&'.repeat(1000)}search=invoice&limit=5`],
    ['escaped', `${'unknown%20name=1&'.repeat(1000)}search=invoice&limit=5`],
  ])('but reads every parameter, not only the first 1,000 (%s)', (_, qs) => {
    expect(parseQueryString(qs)).toMatchObject({ search: 'invoice', limit: '5' });
  });

  it('for any string of names, values and separators', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab=&%+2x_]{0,40}$/), (qs) => {
        expect(parseQueryString(qs)).toEqual(parse(qs));
      }),
      { numRuns: 2_000 },
    );
  });
});
