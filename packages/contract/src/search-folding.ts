import { lookupFolding } from 'unicode-case-folding';

// Any character that is not ASCII: the only ones whose folding is not plain lowercasing.
const NON_ASCII = /[\u0080-\u{10FFFF}]/gu;
const DOTTED_CAPITAL_I = '\u0130';

function foldChar(char: string): string {
  const mapped = lookupFolding(char.codePointAt(0)!);
  return mapped ? String.fromCodePoint(...mapped) : char;
}

/**
 * A string folded for the `search` parameter's case-insensitive match, as the contract defines it: Unicode
 * full case folding (CaseFolding.txt, mappings C and F, so `strasse` finds `Straße`), except that `İ`
 * folds to `i`. A document matches when its folded filename or text contains the folded term. Browser-safe:
 * the reference server, its stores and the suite's model all fold with this.
 * @example foldForSearch('STRAßE İstanbul'); // 'strasse istanbul'
 */
export function foldForSearch(text: string): string {
  // Folding a lowercased string gives the same result, and lowercasing is native and fast: only what is
  // left outside ASCII goes through the table.
  // The contract's one exception to full case folding: İ is i, so `istanbul` finds `İSTANBUL` (full
  // folding, like lowercasing, makes it i followed by a combining dot, which `i` alone never matches).
  const lower = (text.includes(DOTTED_CAPITAL_I) ? text.replaceAll(DOTTED_CAPITAL_I, 'i') : text).toLowerCase();
  return lower.replace(NON_ASCII, foldChar);
}
