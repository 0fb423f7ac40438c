import type { ConformanceReport } from './report.js';

/** One operation's partitions and (operation × state) pairs, when the report records them. */
export interface OperationCoverage {
  operation: string;
  partitions: { exercised: number; total: number; missing: string[] };
  states: { reached: number; total: number; missing: string[] };
}

/** One operation's row of the status matrix. */
export type StatusEntry = { documented: string[]; observed: Record<string, number>; neverObserved: string[] };

const isStatusEntry = (value: unknown): value is StatusEntry =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as StatusEntry).documented) &&
  typeof (value as StatusEntry).observed === 'object';

/** The operation × status rows of the report's coverage (whatever else `coverage` may come to hold beside them). */
export function statusRows(report: ConformanceReport): Array<[string, StatusEntry]> {
  return Object.entries((report.coverage ?? {}) as Record<string, unknown>).filter((e): e is [string, StatusEntry] => isStatusEntry(e[1]));
}

/** The partitions and states reached per operation, when the report has them (`coverage.operations`). */
export function operationCoverage(report: ConformanceReport): OperationCoverage[] | undefined {
  const operations = (report.coverage as { operations?: unknown } | undefined)?.operations;
  return Array.isArray(operations) ? (operations as OperationCoverage[]) : undefined;
}
