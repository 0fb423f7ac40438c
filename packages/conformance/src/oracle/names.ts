import fc from 'fast-check';

/**
 * The characters names and words are made of: letters whose case folding is not lowercasing (`ß`, `İ`,
 * final `ς`, `ﬁ`), letters outside the Basic Multilingual Plane (one code point, two UTF-16 units, four
 * bytes), a combining accent (a decomposed `é` is not the composed one), the characters SQL `LIKE`, globs
 * and regular expressions give meaning to, path separators and dots (a name is data, never a path),
 * quotes, spaces at either end, and punctuation a shell or a URL treats specially.
 */
export const NAME_CHARACTERS = [
  'a',
  'B',
  'z',
  '7',
  'é',
  'É',
  'e\u0301',
  'ß',
  'ẞ',
  'İ',
  'ı',
  'Σ',
  'ς',
  'σ',
  'ﬁ',
  'Ж',
  'ж',
  'Ω',
  '𝔘',
  '😀',
  '中',
  '%',
  '_',
  '*',
  '?',
  '.',
  '[',
  ']',
  '(',
  '+',
  '^',
  '$',
  '|',
  '\\',
  '/',
  '..',
  ':',
  ';',
  ',',
  "'",
  '"',
  '&',
  '#',
  '=',
  '~',
  '!',
  '@',
  '{',
  '}',
  ' ',
  '  ',
  '-',
] as const;

/** The Latin-1 letters a generated PDF's text layer can hold (its standard font's encoding), besides ASCII. */
export const WORD_CHARACTERS = ['a', 'k', 'Q', 'x', '9', 'ß', 'é', 'É', 'Ö', 'ö', 'Å', 'ñ', 'Ñ', 'ÿ', '_', '%', '.'] as const;

/** A piece of a name: 0 to `max` characters of {@link NAME_CHARACTERS}. */
export const namePiece = (max: number) => fc.array(fc.constantFrom(...NAME_CHARACTERS), { maxLength: max }).map((cs) => cs.join(''));

/** A word of a PDF's text: 1 to `max` characters of {@link WORD_CHARACTERS}. */
export const wordPiece = (max: number) =>
  fc.array(fc.constantFrom(...WORD_CHARACTERS), { minLength: 1, maxLength: max }).map((cs) => cs.join(''));

/** How a search term's case is written: as found, upper-cased (`ß` becomes `SS`), lower-cased, or each letter swapped. */
export type CaseSpelling = 'same' | 'upper' | 'lower' | 'swapped';

export function spellCase(text: string, spelling: CaseSpelling): string {
  switch (spelling) {
    case 'same':
      return text;
    case 'upper':
      return text.toUpperCase();
    case 'lower':
      return text.toLowerCase();
    case 'swapped':
      return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  }
}
