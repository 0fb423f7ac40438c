import type { ConformanceReport, OperationCoverage } from './report.js';

export type { OperationCoverage };

/** One operation's row of the status matrix. */
export type StatusEntry = ConformanceReport['statuses'][string];

/** The operation × status rows of the report (`statuses`; a report of an older run may lack them). */
export function statusRows(report: Pick<ConformanceReport, 'statuses'>): Array<[string, StatusEntry]> {
  return Object.entries(report.statuses ?? {});
}

/** The partitions and states reached per operation, when the report recorded them (`coverage.operations`; the proxy's is empty). */
export function operationCoverage(report: Pick<ConformanceReport, 'coverage'>): OperationCoverage[] | undefined {
  const operations = (report.coverage as { operations?: unknown } | undefined)?.operations;
  return Array.isArray(operations) && operations.length > 0 ? (operations as OperationCoverage[]) : undefined;
}
