import type { Check } from '../checks/index.js';
import type { Exchange } from './exchange.js';

/** What a failed check prints: what came back, what the contract says, and the request that showed it. */
export interface FailureDetails {
  received: string;
  documented: string;
  /** The exchange that showed the failure; gives the operation, request id and curl reproducer. */
  exchange?: Exchange;
  /** Extra context for humans (e.g. which documents a walk saw). */
  note?: string;
  /** Set when the target gave no HTTP response at all (refused, reset, timed out): the reason. */
  noResponse?: string;
}

/** The serialisable record of a failure, as kept in the JSON report (texts in full). */
export interface FailureRecord {
  check: string;
  operation: string;
  request: string;
  received: string;
  documented: string;
  note?: string;
  requestId?: string;
  curl?: string;
  /** When the failing request was sent (ms since the epoch), to order failures across files. */
  at: number;
  /** Why the target gave no HTTP response, when it gave none. */
  noResponse?: string;
}

/**
 * Thrown by a check that does not hold. Its message is one short line on purpose: the record carries the
 * verdict, and the suite's own reporter prints it, so no long text ever reaches a stack-trace parser.
 */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  readonly record: FailureRecord;

  constructor(check: Check, details: FailureDetails) {
    super(`${check.id} failed`);
    this.record = toRecord(check, details);
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * The same failure with parts of its record replaced: a model run adds where in its sequence the
 * difference showed and the script that replays the sequence.
 * @example throw amendFailure(failure, { curl: script, note: 'step 3 of 4' });
 */
export function amendFailure(failure: ConformanceFailure, patch: Partial<Omit<FailureRecord, 'check'>>): ConformanceFailure {
  const amended = new ConformanceFailure({ id: failure.record.check } as Check, { received: '', documented: '' });
  (amended as { record: FailureRecord }).record = { ...failure.record, ...patch };
  return amended;
}

function toRecord(check: Check, { received, documented, exchange, note, noResponse }: FailureDetails): FailureRecord {
  return {
    check: check.id,
    operation: exchange?.target.label ?? '(no request)',
    request: exchange ? `${exchange.request.method} ${exchange.request.url}` : '(no request)',
    received,
    documented,
    at: Date.now(),
    ...(note ? { note } : {}),
    ...(noResponse ? { noResponse } : {}),
    ...(exchange?.requestId ? { requestId: exchange.requestId } : {}),
    ...(exchange ? { curl: exchange.reproduce() } : {}),
  };
}

/** How much of Received, Documented and Note the console shows; the JSON report keeps everything. */
export const CONSOLE_TEXT_LIMIT = 400;

/** `text` cut to `max` characters, saying how long it was and where the rest is. */
export function cap(text: string, max = CONSOLE_TEXT_LIMIT): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters; all of it in --report)` : text;
}

/** Formats a failure record as the block the console shows (texts capped at `max` characters). */
export function formatFailure(record: FailureRecord, description?: string, max = CONSOLE_TEXT_LIMIT): string {
  const lines = [`[${record.check}]${description ? ` ${description}` : ''}`];
  lines.push(`  Operation:  ${record.operation}`, `  Request:    ${record.request}`);
  lines.push(`  Received:   ${indent(cap(record.received, max))}`, `  Documented: ${indent(cap(record.documented, max))}`);
  if (record.note) lines.push(`  Note:       ${indent(cap(record.note, max))}`);
  if (record.requestId) lines.push(`  Request id: ${record.requestId}`);
  if (record.curl) lines.push(`  Reproduce:  ${indent(record.curl)}`);
  return lines.join('\n');
}

function indent(text: string): string {
  return text.replace(/\n/g, '\n              ');
}

/** A short, single-line JSON rendering of any value for Received/Documented lines. */
export function show(value: unknown, max = 400): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}
