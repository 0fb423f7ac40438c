/** One table of the benchmark report. */
export interface Table {
  title: string;
  note?: string;
  head: string[];
  rows: Array<Array<string | number>>;
}

/** Rounds for display: integers as they are, small numbers to two significant decimals. */
export function fmt(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return 'n/a';
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

/** A ratio `a / b` written as `2.31x`. */
export function ratio(a: number, b: number): string {
  return b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a';
}

/** Renders tables as GitHub markdown. */
export function toMarkdown(tables: Table[]): string {
  return tables
    .map((t) => {
      const lines = [`### ${t.title}`, ''];
      if (t.note) lines.push(t.note, '');
      lines.push(`| ${t.head.join(' | ')} |`, `|${t.head.map(() => '---').join('|')}|`);
      for (const row of t.rows) lines.push(`| ${row.join(' | ')} |`);
      return lines.join('\n');
    })
    .join('\n\n');
}

export { median, percentile } from '@docproc-kit/test-support/statistics.js';
