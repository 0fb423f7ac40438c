import type { Check } from './checks/index.js';
import type { FailureRecord } from './failure.js';

/** One warning (an undocumented property, say), as kept in the report. */
export interface WarningRecord {
  check: string;
  operation: string;
  message: string;
  requestId?: string;
}

/** What one test did, stored in vitest's `task.meta` so the reporter (in the CLI process) can read it. */
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
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformance?: TestRecord;
  }
}

/** An empty record. */
export function createTestRecord(): TestRecord {
  return { declared: [], counts: {}, failures: [], warnings: [], notExercised: [], coverage: {} };
}

let current: TestRecord | undefined;

/** Makes `record` the one that checks and exchanges are written to (one test runs at a time per file). */
export function useRecord(record: TestRecord | undefined): void {
  current = record;
}

function active(): TestRecord {
  // Requests made outside a scenario would be checked without anyone to report to: a suite bug.
  if (!current) throw new Error('conformance: a check ran outside a scenario');
  return current;
}

function countsOf(check: Check) {
  const record = active();
  return (record.counts[check.id] ??= { passed: 0, failed: 0, warnings: 0 });
}

/** Records that `check` held once. */
export function recordPass(check: Check): void {
  countsOf(check).passed += 1;
}

/** Records a failure of `check` (called once per failing test, by the scenario wrapper). */
export function recordFailure(check: Check, failure: FailureRecord): void {
  countsOf(check).failed += 1;
  active().failures.push(failure);
}

/** Records a warning of `check`. */
export function recordWarning(check: Check, warning: Omit<WarningRecord, 'check'>): void {
  countsOf(check).warnings += 1;
  active().warnings.push({ check: check.id, ...warning });
}

/** Records that `check` could not be exercised, and why. */
export function recordNotExercised(check: Check, reason: string): void {
  active().notExercised.push({ check: check.id, reason });
}

/** Counts one observed status in the coverage matrix. */
export function recordCoverage(row: string, status: number): void {
  const cells = (active().coverage[row] ??= {});
  cells[String(status)] = (cells[String(status)] ?? 0) + 1;
}

/** Whether `check` was evaluated (held, failed or warned) in the active test. */
export function wasEvaluated(check: Check): boolean {
  const counts = current?.counts[check.id];
  return !!counts && counts.passed + counts.failed + counts.warnings > 0;
}
