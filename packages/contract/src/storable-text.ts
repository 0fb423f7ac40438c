const SURROGATE = /[\uD800-\uDFFF]/;
// A UTF-16 code unit of a surrogate pair that has no partner: no Unicode character, and no UTF-8 encoding.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What is wrong with a text a client sends (a filename, a search term, a seeded or forced text), as the
 * contract decides it: text is Unicode characters without U+0000 (NUL). Neither survives storage as
 * sent (PostgreSQL's text cannot hold NUL, and UTF-8 cannot hold a lone surrogate, so it would come back
 * as U+FFFD), so every store refuses them alike, before anything is stored. Undefined when the text is
 * fine. Browser-safe.
 * @example textFault('a\u0000b'); // 'must not contain U+0000 (NUL); character 2 is one'
 */
export function textFault(text: string): string | undefined {
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return `must not contain U+0000 (NUL); character ${[...text.slice(0, nul)].length + 1} is one`;
  // Most texts hold no surrogate at all: the pairing check (a lookbehind at every character) only for those that do.
  const lone = SURROGATE.test(text) ? LONE_SURROGATE.exec(text) : null;
  if (lone) {
    const unit = lone[0].charCodeAt(0).toString(16).toUpperCase();
    return `must be Unicode text; character ${[...text.slice(0, lone.index)].length + 1} is a lone surrogate (U+${unit})`;
  }
  return undefined;
}
