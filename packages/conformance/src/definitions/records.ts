import type { AnsweredRequest } from './config.js';
import type { FailureRecord } from './verdict.js';

/** A transient answer (429, 503, a gateway's 502/504) the suite waited out and resent the request after. */
export interface ResendRecord {
  /** `GET http://...` as sent (the key never in it). */
  request: string;
  requestId?: string;
  status: number;
  /** The Retry-After the answer carried (null: none, a backoff was used). */
  retryAfter: string | null;
  waitMs: number;
  at: number;
}

/** One warning (an undocumented property, say), as kept in the report. */
export interface WarningRecord {
  check: string;
  operation: string;
  message: string;
  requestId?: string;
}

/** Why a test stopped before its end without a verdict: the target became unavailable, or the run's deadline came. */
export interface StoppedRecord {
  reason: 'unavailable' | 'deadline';
  message: string;
  /** For a target that stopped answering mid-run: the last request it answered, and when. */
  lastAnswered?: AnsweredRequest;
}

/**
 * A scenario's fixed part (the sequences it plays on every run, whatever the target's speed): named when it
 * starts, `ended` once every one of them has run to its end. One that did not end is why what it sends was cut.
 */
export interface FixedPartRecord {
  /** `the model run's walk`, `the oracle's fixed sequences`. */
  what: string;
  ended: boolean;
  /** How long it took, once ended. */
  ms?: number;
}

/** What one scenario did: the runner hands it to the reporter with the scenario's outcome. */
export interface TestRecord {
  /** The checks the scenario said it evaluates. */
  declared: string[];
  /** How often each check held, failed or warned in this test. */
  counts: Record<string, { passed: number; failed: number; warnings: number }>;
  failures: FailureRecord[];
  warnings: WarningRecord[];
  /** Checks this test could not exercise against this target, with the reason. */
  notExercised: Array<{ check: string; reason: string }>;
  /** Coverage matrix cells: row (operation) -> status -> count. */
  coverage: Record<string, Record<string, number>>;
  /** Requests resent after a transient answer. */
  resends: ResendRecord[];
  /** What the requests reached, per operation: each partition of the catalogue and each (operation × document state) pair, counted. */
  reach: Record<string, { partitions: Record<string, number>; states: Record<string, number> }>;
  /** Set when the test stopped without a verdict (target unavailable, run deadline). */
  stopped?: StoppedRecord;
  /** The scenario's fixed part, when it has one. */
  fixedPart?: FixedPartRecord;
  /** An error no check claimed (a suite bug, an unexpected body): its message and stack frames. */
  crash?: { message: string; stack: string };
}

/** An empty record. */
export function createTestRecord(): TestRecord {
  return { declared: [], counts: {}, failures: [], warnings: [], notExercised: [], coverage: {}, resends: [], reach: {} };
}
