import { decidedBy } from '../rules/decided-by.js';
import type { AnyCheck, Finding } from './check.js';
import type { Exchange } from './exchange.js';

/** A finding with the request that showed it. */
export interface FailureDetails extends Finding {
  /** The exchange that showed the failure; gives the operation, request id and curl reproducer. */
  exchange?: Exchange;
  /** Set when the target gave no HTTP response at all (refused, reset, timed out): the reason. */
  noResponse?: string;
}

/** The serialisable record of a failure, as kept in the JSON report (texts in full; report/ lays them out). */
export interface FailureRecord extends Finding {
  check: string;
  operation: string;
  request: string;
  requestId?: string;
  curl?: string;
  /** When the failing request was sent (ms since the epoch), to order failures across files. */
  at: number;
  /** Why the target gave no HTTP response, when it gave none. */
  noResponse?: string;
  /** The contract's sentences and schema keywords that decide the verdict (rules/decided-by.ts). */
  decidedBy?: string[];
}

/**
 * Thrown by a check that does not hold. Its message is one short line on purpose: the record carries the
 * verdict, and the suite's own reporter prints it, so no long text ever reaches a stack-trace parser.
 */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  readonly record: FailureRecord;

  constructor(check: AnyCheck, details: FailureDetails) {
    super(`${check.id} failed`);
    this.record = toRecord(check, details);
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * The same failure with parts of its record replaced: a model run adds where in its sequence the
 * difference showed and the script that replays the sequence; a race adds its schedule.
 * @example throw amendFailure(failure, { curl: script, note: 'step 3 of 4' });
 */
export function amendFailure(failure: ConformanceFailure, patch: Partial<Omit<FailureRecord, 'check'>>): ConformanceFailure {
  const amended = new ConformanceFailure({ id: failure.record.check } as AnyCheck, { received: '', expected: '' });
  (amended as { record: FailureRecord }).record = { ...failure.record, ...patch };
  return amended;
}

function toRecord(check: AnyCheck, { received, expected, exchange, note, noResponse }: FailureDetails): FailureRecord {
  const decided = decidedBy(check);
  return {
    check: check.id,
    operation: exchange?.target.label ?? '(no request)',
    request: exchange ? `${exchange.request.method} ${exchange.request.url}` : '(no request)',
    received,
    expected,
    at: Date.now(),
    ...(note ? { note } : {}),
    ...(noResponse ? { noResponse } : {}),
    ...(exchange?.requestId ? { requestId: exchange.requestId } : {}),
    ...(exchange ? { curl: exchange.reproduce() } : {}),
    ...(decided.length ? { decidedBy: decided } : {}),
  };
}
