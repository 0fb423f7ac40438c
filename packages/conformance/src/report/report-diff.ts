import { type OperationCoverage, operationCoverage, statusRows } from './coverage-entries.js';
import type { CheckOutcome, ConformanceReport } from './report.js';

/** A check's outcome in one of the two runs; `absent` when that run's catalogue did not have it. */
export type DiffOutcome = CheckOutcome | 'absent';

/** One check whose outcome differs between the runs. */
export interface CheckChange {
  id: string;
  description: string;
  before: DiffOutcome;
  after: DiffOutcome;
  /** Failures in the later run. */
  failures: number;
}

/** One operation × status cell observed in one run and not in the other (counts vary from run to run; being seen is what changes). */
export interface StatusCellChange {
  operation: string;
  status: string;
  before: number;
  after: number;
}

/** One operation's partitions or states that one run reached and the other did not. */
export interface CoverageEntryChange {
  operation: string;
  kind: 'partitions' | 'states';
  before: string;
  after: string;
  newlyMissing: string[];
  newlyCovered: string[];
}

/** What changed from run A (before) to run B (after). */
export interface ReportDiff {
  before: Pick<ConformanceReport, 'runId' | 'target' | 'result' | 'startedAt' | 'profile'>;
  after: Pick<ConformanceReport, 'runId' | 'target' | 'result' | 'startedAt' | 'profile'>;
  /** Failed after, not before. */
  newlyFailing: CheckChange[];
  /** Failed before; passed (or warned) after. */
  fixed: CheckChange[];
  /** Failed in both runs. */
  stillFailing: string[];
  /** Any other change of outcome (passed to not exercised, a check only one run had, failed to not exercised). */
  otherChanges: CheckChange[];
  statusCells: StatusCellChange[];
  /** Undefined unless both runs record partitions and states. */
  coverage?: CoverageEntryChange[];
}

const facts = (r: ConformanceReport) => ({
  runId: r.runId,
  target: r.target,
  result: r.result,
  startedAt: r.startedAt,
  profile: r.profile,
});

function statusCells(a: ConformanceReport, b: ConformanceReport): StatusCellChange[] {
  const observed = (r: ConformanceReport) => new Map(statusRows(r).map(([op, e]) => [op, e.observed]));
  const [before, after] = [observed(a), observed(b)];
  const changes: StatusCellChange[] = [];
  for (const operation of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const [x, y] = [before.get(operation) ?? {}, after.get(operation) ?? {}];
    for (const status of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
      const [n, m] = [x[status] ?? 0, y[status] ?? 0];
      if (n > 0 !== m > 0) changes.push({ operation, status, before: n, after: m });
    }
  }
  return changes;
}

function coverageChanges(a: OperationCoverage[], b: OperationCoverage[]): CoverageEntryChange[] {
  const changes: CoverageEntryChange[] = [];
  const byOp = new Map(a.map((o) => [o.operation, o]));
  for (const after of b) {
    const before = byOp.get(after.operation);
    for (const kind of ['partitions', 'states'] as const) {
      const [x, y] = [before?.[kind], after[kind]];
      const done = (c: typeof y | undefined) => (c ? `${'exercised' in c ? c.exercised : c.reached}/${c.total}` : 'absent');
      const [was, is] = [new Set(x?.missing ?? []), new Set(y.missing)];
      const newlyMissing = [...is].filter((m) => !was.has(m));
      const newlyCovered = [...was].filter((m) => !is.has(m));
      if (done(x) !== done(y) || newlyMissing.length || newlyCovered.length)
        changes.push({ operation: after.operation, kind, before: done(x), after: done(y), newlyMissing, newlyCovered });
    }
  }
  return changes;
}

/**
 * Compares two runs' reports check by check and cell by cell: what a team wants to know after a deploy.
 * @example const diff = diffReports(lastNight, today); diff.newlyFailing.map((c) => c.id);
 */
export function diffReports(a: ConformanceReport, b: ConformanceReport): ReportDiff {
  const before = new Map(a.checks.map((c) => [c.id, c]));
  const after = new Map(b.checks.map((c) => [c.id, c]));
  const diff: ReportDiff = {
    before: facts(a),
    after: facts(b),
    newlyFailing: [],
    fixed: [],
    stillFailing: [],
    otherChanges: [],
    statusCells: statusCells(a, b),
  };
  for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const [x, y] = [before.get(id), after.get(id)];
    const change: CheckChange = {
      id,
      description: (y ?? x)!.description,
      before: x?.outcome ?? 'absent',
      after: y?.outcome ?? 'absent',
      failures: y?.failures.length ?? 0,
    };
    if (change.before === 'failed' && change.after === 'failed') diff.stillFailing.push(id);
    else if (change.after === 'failed') diff.newlyFailing.push(change);
    else if (change.before === 'failed' && (change.after === 'passed' || change.after === 'warned')) diff.fixed.push(change);
    else if (change.before !== change.after) diff.otherChanges.push(change);
  }
  const [ca, cb] = [operationCoverage(a), operationCoverage(b)];
  if (ca && cb) diff.coverage = coverageChanges(ca, cb);
  return diff;
}

/** The diff as the console prints it. */
export function formatDiff(diff: ReportDiff): string {
  const run = (r: ReportDiff['before']) => `${r.runId} (${r.result}, ${r.target}, ${r.startedAt})`;
  const out = ['', ` docproc conformance diff`, `   Before   ${run(diff.before)}`, `   After    ${run(diff.after)}`];
  const section = (title: string, lines: string[]) =>
    out.push(`   ${title}${lines.length ? '' : ': none'}`, ...lines.map((l) => `    ${l}`));
  section(
    'Newly failing',
    diff.newlyFailing.map((c) => `✗ ${c.id} (${c.before} before; ${c.failures} failure(s)): ${c.description}`),
  );
  section(
    'Fixed',
    diff.fixed.map((c) => `✓ ${c.id} (now ${c.after}): ${c.description}`),
  );
  if (diff.stillFailing.length) section('Still failing', [diff.stillFailing.join(', ')]);
  if (diff.otherChanges.length)
    section(
      'Other changes',
      diff.otherChanges.map((c) => `○ ${c.id}: ${c.before} → ${c.after}`),
    );
  section(
    'Status cells',
    diff.statusCells.map(
      (c) =>
        `${c.after > 0 ? '+' : '-'} ${c.operation} ${c.status}: ${c.after > 0 ? `now observed (${c.after})` : `no longer observed (was ${c.before})`}`,
    ),
  );
  if (diff.coverage)
    section(
      'Partitions and states',
      diff.coverage.map(
        (c) =>
          `${c.operation} ${c.kind}: ${c.before} → ${c.after}${c.newlyMissing.length ? `; newly missing ${c.newlyMissing.join(', ')}` : ''}${c.newlyCovered.length ? `; newly covered ${c.newlyCovered.join(', ')}` : ''}`,
      ),
    );
  out.push('');
  return out.join('\n');
}
