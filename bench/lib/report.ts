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

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The p-th percentile (0..100) of a list of numbers, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
