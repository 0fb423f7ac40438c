import { lookupFolding } from 'unicode-case-folding';

// Past the last code point CaseFolding.txt maps (U+1E921), checked by search-folding.test.ts.
const LAST_FOLDED = 0x1efff;
const DOTTED_CAPITAL_I = '\u0130';

function foldChar(char: string): string {
  const mapped = lookupFolding(char.codePointAt(0)!);
  return mapped ? String.fromCodePoint(...mapped) : char;
}

// The characters a lowercased text can still hold that folding changes (ß, ς, ﬁ and a few hundred more),
// found once from the table: a text is scanned for these alone, not handed to the table a character at a
// time (a seed of megabytes of Cyrillic or Japanese text otherwise spends seconds here).
let stillFolding: RegExp | undefined;
function foldsAfterLowercasing(): RegExp {
  if (stillFolding) return stillFolding;
  const chars: string[] = [];
  for (let cp = 0x80; cp <= LAST_FOLDED; cp++) {
    const char = String.fromCodePoint(cp);
    if (lookupFolding(cp) && char.toLowerCase() === char && foldChar(char) !== char) chars.push(char);
  }
  const escaped = chars.map((char) => `\\u{${char.codePointAt(0)!.toString(16)}}`).join('');
  stillFolding = new RegExp(`[${escaped}]`, 'gu');
  return stillFolding;
}

/**
 * A string folded for the `search` parameter's case-insensitive match, as the contract defines it: Unicode
 * full case folding (CaseFolding.txt, mappings C and F, so `strasse` finds `Straße`), except that `İ`
 * folds to `i`. A document matches when its folded filename or text contains the folded term. Browser-safe:
 * the reference server, its stores and the suite's model all fold with this.
 * @example foldForSearch('STRAßE İstanbul'); // 'strasse istanbul'
 */
export function foldForSearch(text: string): string {
  // Folding a lowercased string gives the same result, and lowercasing is native and fast: only what
  // lowercasing leaves unfolded goes through the table.
  // The contract's one exception to full case folding: İ is i, so `istanbul` finds `İSTANBUL` (full
  // folding, like lowercasing, makes it i followed by a combining dot, which `i` alone never matches).
  const lower = (text.includes(DOTTED_CAPITAL_I) ? text.replaceAll(DOTTED_CAPITAL_I, 'i') : text).toLowerCase();
  return lower.replace(foldsAfterLowercasing(), foldChar);
}
