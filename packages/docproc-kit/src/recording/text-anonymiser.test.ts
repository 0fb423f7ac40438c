import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import { describe, expect, it } from 'vitest';
import { createRedactor } from './text-anonymiser.js';

const redactor = (...texts: string[]) => {
  const r = createRedactor('test-key');
  for (const text of texts) r.avoid(text);
  return r;
};

describe('redaction', () => {
  it.each([
    ['Latin, with case', 'Sourdough LOAF', /^[A-Z][a-z]{8} [A-Z]{4}$/u],
    ['Cyrillic', 'Поставщик ООО', /^\p{Script=Cyrillic}{9} \p{Script=Cyrillic}{3}$/u],
    ['Greek', 'ΟΔΟΣ', /^\p{Script=Greek}{4}$/u],
    ['Japanese kanji and kana', '請求書 ひらがな カタカナ', /^\p{Script=Han}{3} \p{Script=Hiragana}{4} \p{Script=Katakana}{4}$/u],
    ['Arabic', 'فاتورة', /^\p{Script=Arabic}{6}$/u],
    ['digits and punctuation', 'Total: 4,500.00 EUR', /^[A-Z][a-z]{4}: \d,\d{3}\.\d\d [A-Z]{3}$/u],
    ['scripts side by side in one word', 'abcабв', /^[a-z]{3}\p{Script=Cyrillic}{3}$/u],
  ])('keeps the lengths and scripts of %s', (_what, text, shape) => {
    const redacted = redactor(text).text(text);
    expect(redacted).toMatch(shape);
    expect(redacted).not.toBe(text);
  });

  it('gives a word the same replacement in any case, so a search for it finds every text that had it', () => {
    const r = redactor('Harbor', 'HARBOR harbor');
    const one = r.text('Harbor');
    const two = r.text('HARBOR harbor');
    expect(foldForSearch(two)).toBe(`${foldForSearch(one)} ${foldForSearch(one)}`);
  });

  it('never gives back a word it was told to avoid, even among the short ones', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    // 200 of the 676 two-letter words: a draw lands on one of them often, and is drawn again.
    const words = Array.from({ length: 200 }, (_, i) => `${letters[i % 26]}${letters[Math.floor(i / 26) % 26]}`);
    const text = words.join(' ');
    const redacted = redactor(text).text(text).split(' ');
    expect(redacted.filter((word) => words.includes(word))).toEqual([]);
  });

  it('keeps a filename’s extension, and only its last', () => {
    const r = redactor('report.final.pdf');
    expect(r.filename('report.final.pdf')).toMatch(/^[a-z]{6}\.[a-z]{5}\.pdf$/);
    expect(r.filename('.env')).toMatch(/^\.[a-z]{3}$/);
  });

  it('is deterministic under one key, and another key gives other words', () => {
    expect(createRedactor('k1').text('Harbor Logistics')).toBe(createRedactor('k1').text('Harbor Logistics'));
    expect(createRedactor('k1').text('Harbor Logistics')).not.toBe(createRedactor('k2').text('Harbor Logistics'));
  });
});
