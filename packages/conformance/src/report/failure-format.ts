import type { FailureRecord } from '../definitions/verdict.js';

/** How much of Received, Expected and Note the console shows; the JSON report keeps everything. */
export const CONSOLE_TEXT_LIMIT = 400;

/** `text` cut to `max` characters, saying how long it was and where the rest is. */
export function cap(text: string, max = CONSOLE_TEXT_LIMIT): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters; all of it in --report)` : text;
}

/** Formats a failure record as the block the console shows (texts capped at `max` characters). */
export function formatFailure(record: FailureRecord, description?: string, max = CONSOLE_TEXT_LIMIT): string {
  const lines = [`[${record.check}]${description ? ` ${description}` : ''}`];
  lines.push(`  Operation:  ${record.operation}`, `  Request:    ${record.request}`);
  lines.push(`  Received:   ${indent(cap(record.received, max))}`, `  Expected:   ${indent(cap(record.expected, max))}`);
  if (record.note) lines.push(`  Note:       ${indent(cap(record.note, max))}`);
  if (record.decidedBy?.length) lines.push(`  Decided by: ${indent(record.decidedBy.map((line) => cap(line, max)).join('\n'))}`);
  if (record.requestId) lines.push(`  Request id: ${record.requestId}`);
  if (record.curl) lines.push(`  Reproduce:  ${indent(record.curl)}`);
  return lines.join('\n');
}

function indent(text: string): string {
  return text.replace(/\n/g, '\n              ');
}
