import { describe, expect, it } from 'vitest';
import { textFault } from './storable-text.js';

describe('textFault says what in a client text no store can hold', () => {
  it.each([
    ['plain text', 'receipt.pdf'],
    ['any Unicode, astral characters included', 'Straße İstanbul 😀 \uFFFD'],
    ['the empty string', ''],
  ])('nothing for %s', (_, text) => {
    expect(textFault(text)).toBeUndefined();
  });

  it.each([
    ['a NUL', 'a\u0000b', 'must not contain U+0000 (NUL); character 2 is one'],
    ['a NUL after an astral character', '😀\u0000', 'must not contain U+0000 (NUL); character 2 is one'],
    ['a lone high surrogate', 'ab\uD800', 'must be Unicode text; character 3 is a lone surrogate (U+D800)'],
    ['a lone low surrogate', '\uDC00x', 'must be Unicode text; character 1 is a lone surrogate (U+DC00)'],
    ['surrogates in the wrong order', '\uDE00\uD83D', 'must be Unicode text; character 1 is a lone surrogate (U+DE00)'],
  ])('names %s and where it is', (_, text, fault) => {
    expect(textFault(text)).toBe(fault);
  });
});
