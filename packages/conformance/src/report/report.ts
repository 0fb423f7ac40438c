import { type Check, type Profile, profileIncludes } from '../checks/index.js';
import { SCENARIO_AREAS } from '../definitions/areas.js';
import type { ResendRecord, StoppedRecord, TestRecord, WarningRecord } from '../definitions/records.js';
import type { FailureRecord } from '../definitions/verdict.js';
import { ENDED_SINCE_READ_RUNNING } from '../inputs/document-states.js';
import type { CoverageUniverse } from '../inputs/reach.js';
import { type FixedPartOutcome, type MissingReason, missingReason, type RunFacts } from './missing-reasons.js';

/** A check's verdict for the run. */
export type CheckOutcome = 'passed' | 'warned' | 'failed' | 'not-exercised' | 'not-in-profile';

/** One check in the JSON report. */
export interface CheckReport {
  id: string;
  profile: Profile;
  area: Check['area'];
  description: string;
  outcome: CheckOutcome;
  passes: number;
  failures: Array<FailureRecord & { test: string }>;
  /** One entry per distinct warning, with how often it was seen. */
  warnings: Array<WarningRecord & { test: string; count: number }>;
  /** Why some (or all) scenarios could not exercise it. */
  notExercised: string[];
}

/** One test (scenario) as the reporter saw it. */
export interface TestInput {
  file: string;
  name: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  note?: string;
  durationMs?: number;
  record?: TestRecord;
  errors: string[];
}

/** Facts about the run the report starts with. */
export interface RunInfo {
  runId: string;
  /** The seed of the run's random sequences (rerun them with --seed). */
  seed?: number;
  profile: Profile;
  target: string;
  spec: string;
  strict: boolean;
  only: string[] | null;
  /** The target's TLS certificate was not verified (--insecure): nothing proves who answered. */
  insecure?: boolean;
  /** The contract's `info.version`, as the run read it. */
  contractVersion?: string;
  startedAt: string;
  finishedAt: string;
}

/** The JSON report `--report` writes. */
export interface ConformanceReport extends RunInfo {
  tool: 'docproc conformance' | 'docproc proxy';
  result: 'passed' | 'failed';
  summary: Record<CheckOutcome, number> & { tests: Record<TestInput['state'], number> };
  checks: CheckReport[];
  /** Failures no check claimed (a crashed scenario, a suite file that did not load): they fail the run too. */
  unattributed: Array<{ test: string; error: string; stack?: string }>;
  tests: Array<Omit<TestInput, 'record'> & { checks: string[] }>;
  /**
   * Operation -> status -> how many responses had it; `documented` lists what the contract allows and
   * `neverObserved` the documented statuses a client can provoke (not 5xx, not 429) that no response had.
   */
  statuses: Record<string, { documented: string[]; observed: Record<string, number>; neverObserved: string[] }>;
  /**
   * What the run's requests reached, per operation: the partitions of the contract's partition catalogue
   * they fell in, and the (operation × document state) pairs they were sent to. `missing` names what was
   * not reached (a partition nothing generates ends in "(no generator)"), and `why` says what kept each from it.
   */
  coverage: { operations: OperationCoverage[] };
  /**
   * Every request resent after a transient answer (429, 503, a gateway's 502/504): never judged, waited out
   * as its Retry-After asked (or a backoff), and counted here.
   */
  resends: { total: number; byStatus: Record<string, number>; waitedMs: number; requests: Array<ResendRecord & { test: string }> };
  /** Why the run stopped before it finished, when it did: the target became unavailable, or the run's deadline came. */
  stopped?: StoppedRecord;
}

/** One operation's reach in the report. */
export interface OperationCoverage {
  operation: string;
  partitions: { exercised: number; total: number; missing: string[]; why?: Record<string, MissingReason> };
  states: { reached: number; total: number; missing: string[]; why?: Record<string, MissingReason> };
}

/** Marks a missing partition that nothing in the suite generates. */
export const NO_GENERATOR = ' (no generator)';

const RUNS_ENDED_BEFORE_READ =
  "every read the suite sent to a document it last saw processing found the run already ended: the target ends its runs before the suite's first read, so none was read while going on (runs that take longer, as real extraction does, reach it)";

function reachOf(tests: readonly TestInput[], universe: CoverageUniverse | undefined, facts: RunFacts): OperationCoverage[] {
  const why = missingReason(facts);
  return (universe?.operations ?? []).map(({ operation, partitions, states, limits = {} }) => {
    const seen = { partitions: new Set<string>(), states: new Set<string>() };
    for (const test of tests) {
      const reach = test.record?.reach?.[operation];
      for (const p of Object.keys(reach?.partitions ?? {})) seen.partitions.add(p);
      for (const s of Object.keys(reach?.states ?? {})) seen.states.add(s);
    }
    const missingPartitions = partitions.filter((p) => !seen.partitions.has(p.name));
    const missingStates = states.filter((s) => !seen.states.has(s));
    // Reads were sent to documents last seen running, and every fixed part ended: the target's runs end
    // before the suite's first read, so no read could show one going on. The target's speed, not the suite.
    const fixedEnded = facts.fixedParts.length > 0 && facts.fixedParts.every((f) => f.part.ended);
    const runs = (s: string) =>
      s === ENDED_SINCE_READ_RUNNING && fixedEnded && seen.states.has(states[0] ?? '') ? { limit: RUNS_ENDED_BEFORE_READ } : {};
    const shown = (p: { name: string; gap: boolean }) => (p.gap ? `${p.name}${NO_GENERATOR}` : p.name);
    const reasons = <T>(items: T[], name: (t: T) => string, item: (t: T) => { gap?: boolean; limit?: string }) =>
      items.length ? { why: Object.fromEntries(items.map((t) => [name(t), why(item(t))])) } : {};
    return {
      operation,
      partitions: {
        exercised: partitions.length - missingPartitions.length,
        total: partitions.length,
        missing: missingPartitions.map(shown),
        ...reasons(missingPartitions, shown, (p) => ({ gap: p.gap, ...(limits[p.name] ? { limit: limits[p.name] } : {}) })),
      },
      states: {
        reached: states.length - missingStates.length,
        total: states.length,
        missing: missingStates,
        ...reasons(
          missingStates,
          (s) => s,
          (s) => (limits[s] ? { limit: limits[s] } : runs(s)),
        ),
      },
    };
  });
}

/** The fixed parts the tests played, each with how its test ended. */
function fixedParts(tests: readonly TestInput[]): FixedPartOutcome[] {
  return tests.flatMap((t) =>
    t.record?.fixedPart
      ? [
          {
            part: t.record.fixedPart,
            state: t.state,
            failedChecks: [...new Set(t.record.failures.map((f) => f.check))],
            ...(t.record.stopped ? { stopped: t.record.stopped } : {}),
            ...(t.note !== undefined ? { note: t.note } : {}),
          },
        ]
      : [],
  );
}

/** The share of every partition and (operation × state) pair the run reached, in percent (100 when there are none). */
export function coveragePercent(report: Pick<ConformanceReport, 'coverage'>): number {
  let reached = 0;
  let total = 0;
  for (const op of report.coverage.operations) {
    reached += op.partitions.exercised + op.states.reached;
    total += op.partitions.total + op.states.total;
  }
  return total === 0 ? 100 : (100 * reached) / total;
}

/**
 * Whether `--only` left `check` out: its area has scenario files and was not selected. Checks of other
 * areas (every response, validation errors) run inside all scenario files, so `--only` never leaves them out.
 */
export function leftOutByOnly(check: Pick<Check, 'area'>, only: readonly string[]): boolean {
  return (SCENARIO_AREAS as readonly string[]).includes(check.area) && !only.includes(check.area);
}

function outcomeOf(check: Check, profile: Profile, passes: number, failures: number, warnings: number): CheckOutcome {
  if (!profileIncludes(profile, check.profile)) return 'not-in-profile';
  if (failures > 0) return 'failed';
  if (warnings > 0) return 'warned';
  return passes > 0 ? 'passed' : 'not-exercised';
}

/**
 * Builds the report from every test's record: per-check outcomes, unattributed failures, the statuses
 * observed and, given the contract's `universe`, the partitions and document states reached.
 * @example buildReport(info, tests, catalog, { getDocument: ['200', '400', '404'] }, coverageUniverse(contract));
 */
export function buildReport(
  info: RunInfo,
  tests: TestInput[],
  catalog: readonly Check[],
  documented: Record<string, string[]>,
  universe?: CoverageUniverse,
): ConformanceReport {
  const checks = catalog.map((check): CheckReport => {
    let passes = 0;
    const failures: CheckReport['failures'] = [];
    const warnings: CheckReport['warnings'] = [];
    const notExercised = new Set<string>();
    for (const test of tests) {
      const r = test.record;
      passes += r?.counts[check.id]?.passed ?? 0;
      for (const f of r?.failures ?? []) if (f.check === check.id) failures.push({ ...f, test: test.name });
      for (const w of r?.warnings ?? []) {
        if (w.check !== check.id) continue;
        const seen = warnings.find((x) => x.message === w.message);
        if (seen) seen.count += 1;
        else warnings.push({ ...w, test: test.name, count: 1 });
      }
      for (const n of r?.notExercised ?? []) if (n.check === check.id) notExercised.add(`${test.name}: ${n.reason}`);
      const declared = r?.declared.includes(check.id) ?? false;
      const evaluated = !!r?.counts[check.id];
      if (declared && !evaluated && test.state === 'skipped' && test.note && profileIncludes(info.profile, check.profile))
        notExercised.add(`${test.name}: ${test.note}`);
      if (declared && !evaluated && test.state === 'failed') notExercised.add(`${test.name}: not reached, the scenario failed first`);
    }
    const outcome = outcomeOf(check, info.profile, passes, failures.length, warnings.length);
    if (outcome === 'not-exercised' && notExercised.size === 0) {
      const leftOut = info.only && leftOutByOnly(check, info.only);
      notExercised.add(leftOut ? `area ${check.area} not selected by --only` : 'no scenario evaluated it');
    }
    return { ...check, outcome, passes, failures, warnings, notExercised: [...notExercised] };
  });
  const unattributed = tests
    .filter((t) => t.state === 'failed' && !t.record?.failures.length)
    .map((t) => ({
      test: t.name,
      error: t.errors[0] ?? 'failed without an error message',
      ...(t.record?.crash?.stack ? { stack: t.record.crash.stack } : {}),
    }));
  const coverage: ConformanceReport['statuses'] = {};
  for (const [op, statuses] of Object.entries(documented)) coverage[op] = { documented: statuses, observed: {}, neverObserved: [] };
  for (const test of tests) {
    for (const [row, cells] of Object.entries(test.record?.coverage ?? {})) {
      const entry = coverage[row] ?? { documented: [], observed: {}, neverObserved: [] };
      coverage[row] = entry;
      for (const [status, n] of Object.entries(cells)) entry.observed[status] = (entry.observed[status] ?? 0) + n;
    }
  }
  for (const entry of Object.values(coverage)) {
    // No client can provoke a server error or a rate limit on purpose: a 5xx or 429 never observed is no gap.
    const provokable = entry.documented.filter((s) => s[0] !== '5' && s !== '429');
    entry.neverObserved = provokable.filter(
      (s) => !Object.keys(entry.observed).some((o) => o === s || (s.endsWith('XX') && o[0] === s[0])),
    );
    // An operation --only left out was not meant to be exercised.
    if (info.only && Object.keys(entry.observed).length === 0) entry.neverObserved = [];
  }
  const count = <T extends string>(values: T[], keys: readonly T[]) =>
    Object.fromEntries(keys.map((k) => [k, values.filter((v) => v === k).length])) as Record<T, number>;
  const outcomes = count(
    checks.map((c) => c.outcome),
    ['passed', 'warned', 'failed', 'not-exercised', 'not-in-profile'] as const,
  );
  const states = count(
    tests.map((t) => t.state),
    ['passed', 'failed', 'skipped', 'pending'] as const,
  );
  const resent = tests.flatMap((t) => (t.record?.resends ?? []).map((r) => ({ ...r, test: t.name })));
  const byStatus: Record<string, number> = {};
  for (const r of resent) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const stops = tests.flatMap((t) => (t.record?.stopped ? [t.record.stopped] : []));
  const stopped = stops.find((s) => s.reason === 'unavailable') ?? stops[0];
  const failed = outcomes.failed > 0 || unattributed.length > 0 || tests.some((t) => t.state === 'failed') || tests.length === 0;
  return {
    tool: 'docproc conformance',
    ...info,
    result: failed ? 'failed' : 'passed',
    summary: { ...outcomes, tests: states },
    checks,
    unattributed,
    tests: tests.map(({ record, ...t }) => ({ ...t, checks: record?.declared ?? [] })),
    statuses: coverage,
    coverage: {
      operations: reachOf(tests, universe, {
        profile: info.profile,
        only: info.only,
        fixedParts: fixedParts(tests),
        ...(stopped ? { stopped } : {}),
      }),
    },
    resends: { total: resent.length, byStatus, waitedMs: resent.reduce((sum, r) => sum + r.waitMs, 0), requests: resent },
    ...(stopped ? { stopped } : {}),
  };
}
