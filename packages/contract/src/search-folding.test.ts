import { lookupFolding } from 'unicode-case-folding';
import { describe, expect, it } from 'vitest';
import { foldForSearch } from './search-folding.js';

const matches = (text: string, term: string) => foldForSearch(text).includes(foldForSearch(term));

describe('the search parameter matches case-insensitively under full case folding', () => {
  it.each([
    ['ASCII letters', 'Invoice-2024.PDF', 'invoice-2024.pdf'],
    ['sharp s and its capital, as ss', 'STRASSE', 'Straße'],
    ['the capital sharp s', 'ẞ', 'ss'],
    ['dotted capital I as i', 'İSTANBUL', 'istanbul'],
    ['Greek final sigma as sigma', 'ΟΔΟΣ', 'οδος'],
    ['ligatures', 'ﬁle', 'FILE'],
    ['Cyrillic', 'ДОКУМЕНТ', 'документ'],
    ['Cherokee, whose folding is upper case', 'ᏣᎳᎩ', 'ꮳꮃꭹ'],
  ])('%s: %j finds %j', (_what, text, term) => {
    expect(matches(text, term)).toBe(true);
  });

  it.each([
    ['dotless i is not i', 'ı', 'i'],
    ['accents are not ignored', 'résumé', 'resume'],
  ])('%s: %j does not find %j', (_what, text, term) => {
    expect(matches(text, term)).toBe(false);
  });

  it('folds every character CaseFolding.txt maps: none lies past the range it is scanned for (U+1EFFF)', () => {
    const past: number[] = [];
    for (let cp = 0x1f000; cp <= 0x10ffff; cp++) if (lookupFolding(cp)) past.push(cp);
    expect(past).toEqual([]);
  });

  it('leaves ASCII-only text as its lowercase', () => {
    expect(foldForSearch('Hello, World 42!')).toBe('hello, world 42!');
  });
});
