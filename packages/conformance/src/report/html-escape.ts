/** Markup that is already escaped: only {@link html} makes one, so every other string is escaped on the way in. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text as HTML text or attribute value. A target's answer can hold anything: what HTML cannot show (a
 * NUL, other control characters, a lone surrogate) becomes U+FFFD, as in the JUnit file.
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\x7E\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[];

function render(value: Part): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * A template tag that escapes every value put into it, unless the value is itself markup made by this
 * tag; arrays are joined and `null`, `undefined` and booleans leave nothing (for `cond && html\`...\``).
 * @example html`<td title="${status}">${count}</td>`
 */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** How much of one Received, Expected or Note the page shows; the JSON report keeps everything. */
export const PAGE_TEXT_LIMIT = 20_000;

/** `text` cut to `max` characters, saying how long it was and where the rest is. */
export function capText(text: string, max = PAGE_TEXT_LIMIT): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters; all of it in the JSON report)` : text;
}

/** `list.limit` as an anchor id: letters, digits and dashes only. */
export function anchorId(prefix: string, name: string): string {
  return `${prefix}-${name.replace(/[^A-Za-z0-9]+/g, '-')}`;
}

/** A CHECK_AREAS title with its `code` spans as markup. */
export function withCode(text: string): SafeHtml {
  return new SafeHtml(
    text
      .split('`')
      .map((part, i) => (i % 2 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part)))
      .join(''),
  );
}
