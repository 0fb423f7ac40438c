import type { Check } from './checks/index.js';
import type { Exchange } from './exchange.js';

/** What a failed check prints: what came back, what the contract says, and the request that showed it. */
export interface FailureDetails {
  received: string;
  documented: string;
  /** The exchange that showed the failure; gives the operation, request id and curl reproducer. */
  exchange?: Exchange;
  /** Extra context for humans (e.g. which documents a walk saw). */
  note?: string;
}

/** The serialisable record of a failure, as kept in the JSON report. */
export interface FailureRecord {
  check: string;
  name: string;
  operation: string;
  request: string;
  received: string;
  documented: string;
  note?: string;
  requestId?: string;
  curl?: string;
}

/** Thrown by a check that does not hold; its message is the whole human-readable verdict. */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  readonly record: FailureRecord;

  constructor(check: Check, details: FailureDetails) {
    const record = toRecord(check, details);
    super(formatFailure(record, check.description));
    this.record = record;
    // The message says everything; frames inside the suite's own helpers would only add noise.
    this.stack = `${this.name}: ${this.message}`;
  }
}

function toRecord(check: Check, { received, documented, exchange, note }: FailureDetails): FailureRecord {
  return {
    check: check.id,
    name: check.name,
    operation: exchange?.target.label ?? '(no request)',
    request: exchange ? `${exchange.request.method} ${exchange.request.url}` : '(no request)',
    received,
    documented,
    ...(note ? { note } : {}),
    ...(exchange?.requestId ? { requestId: exchange.requestId } : {}),
    ...(exchange ? { curl: exchange.reproduce() } : {}),
  };
}

/** Formats a failure record as the block the console shows. */
export function formatFailure(record: FailureRecord, description?: string): string {
  const lines = [`[${record.check}] ${record.name}${description ? ` — ${description}` : ''}`];
  lines.push(`  Operation:  ${record.operation}`, `  Request:    ${record.request}`);
  lines.push(`  Received:   ${indent(record.received)}`, `  Documented: ${indent(record.documented)}`);
  if (record.note) lines.push(`  Note:       ${indent(record.note)}`);
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
