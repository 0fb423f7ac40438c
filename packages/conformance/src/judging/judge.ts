import type { AnyCheck, Check, Profile } from '../definitions/check.js';
import { profileIncludes } from '../definitions/check.js';
import type { Exchange } from '../definitions/exchange.js';
import type { FixedPartRecord, ResendRecord, TestRecord, WarningRecord } from '../definitions/records.js';
import { ConformanceFailure, type FailureDetails, type FailureRecord } from '../definitions/verdict.js';
import type { ReachObserver } from '../inputs/reach.js';
import type { AnswerJudge } from '../transport/http.js';
import { judgeAnswers } from './answers.js';

/**
 * Decides and records verdicts for one scenario file: which check held, failed, warned or could not be
 * exercised, and which statuses were seen. One judge per file (a file runs one scenario at a time), handed
 * to everything that judges, so no verdict ever lands in another file's or another run's record.
 */
export interface Judge extends AnswerJudge {
  /** The profile of this run: a check outside it is never evaluated. */
  readonly profile: Profile;
  /** Makes `record` the one verdicts go to (the scenario wrapper); `undefined` ends the scenario. */
  use(record: TestRecord | undefined): void;
  /** Records a pass of `check` when `holds`, else throws its structured failure (details built lazily). */
  verify(check: AnyCheck, holds: boolean, details: () => FailureDetails): void;
  /**
   * Hands `observation` to the check's own judge: records a pass when it finds nothing, else throws the
   * finding as the check's failure, shown by `exchange`.
   */
  check<I>(check: Check<I>, observation: I, exchange?: Exchange): void;
  /**
   * A precondition on the way to `check`'s own assertion: fails as `check` when it does not hold, but a
   * holding precondition is not a pass, so a scenario stopped before its assertion never reports one.
   */
  require(check: AnyCheck, holds: boolean, details: () => FailureDetails): void;
  /** Records that `check` held once (for checks that judge without throwing, such as warnings). */
  pass(check: AnyCheck): void;
  /** Records a failure of `check` (once per failing test, by the scenario wrapper). */
  fail(check: AnyCheck, failure: FailureRecord): void;
  warn(check: AnyCheck, warning: Omit<WarningRecord, 'check'>): void;
  notExercised(check: AnyCheck, reason: string): void;
  /** Records a request resent after a transient answer. */
  resent(resend: ResendRecord): void;
  /** Records the scenario's fixed part: once as it starts (`ended: false`), again when it has ended. */
  fixedPart(part: FixedPartRecord): void;
  /** Counts one observed status in the coverage matrix. */
  coverage(row: string, status: number): void;
  /** Whether `check` was evaluated (held, failed or warned) in the active scenario. */
  evaluated(check: AnyCheck): boolean;
}

/**
 * Creates the judge of one scenario file; `reach` classifies what each answered request reached (none: nothing is recorded).
 * @example const judge = createJudge('full'); judge.use(createTestRecord()); judge.verify(check, ok, () => ({ received, expected }));
 */
export function createJudge(profile: Profile, options: { reach?: ReachObserver } = {}): Judge {
  let current: TestRecord | undefined;
  const active = (): TestRecord => {
    // A verdict outside a scenario would have no one to report to: a suite bug.
    if (!current) throw new Error('conformance suite bug: a check ran outside a scenario');
    return current;
  };
  const counts = (check: AnyCheck) => {
    const record = active();
    const found = record.counts[check.id] ?? { passed: 0, failed: 0, warnings: 0 };
    record.counts[check.id] = found;
    return found;
  };
  const inProfile = (check: AnyCheck) => {
    if (!profileIncludes(profile, check.profile))
      throw new Error(`conformance suite bug: ${check.id} (${check.profile}) evaluated in a ${profile} run`);
  };
  const judge: Omit<Judge, keyof ReturnType<typeof judgeAnswers>> = {
    profile,
    use(record) {
      current = record;
    },
    verify(check, holds, details) {
      inProfile(check);
      if (!holds) throw new ConformanceFailure(check, details());
      counts(check).passed += 1;
    },
    check(check, observation, exchange) {
      inProfile(check);
      if (!check.judge) throw new Error(`conformance suite bug: ${check.id} has no judge`);
      const finding = check.judge(observation);
      if (finding) throw new ConformanceFailure(check, { ...finding, ...(exchange ? { exchange } : {}) });
      counts(check).passed += 1;
    },
    require(check, holds, details) {
      inProfile(check);
      if (!holds) throw new ConformanceFailure(check, details());
    },
    pass(check) {
      counts(check).passed += 1;
    },
    fail(check, failure) {
      counts(check).failed += 1;
      active().failures.push(failure);
    },
    warn(check, warning) {
      counts(check).warnings += 1;
      active().warnings.push({ check: check.id, ...warning });
    },
    notExercised(check, reason) {
      active().notExercised.push({ check: check.id, reason });
    },
    resent(resend) {
      active().resends.push(resend);
    },
    fixedPart(part) {
      active().fixedPart = part;
    },
    coverage(row, status) {
      const record = active();
      const cells = record.coverage[row] ?? {};
      record.coverage[row] = cells;
      cells[String(status)] = (cells[String(status)] ?? 0) + 1;
    },
    reached(exchange) {
      const seen = options.reach?.(exchange);
      if (!seen) return;
      const record = active();
      const entry = record.reach[seen.operation] ?? { partitions: {}, states: {} };
      record.reach[seen.operation] = entry;
      for (const p of seen.partitions) entry.partitions[p] = (entry.partitions[p] ?? 0) + 1;
      for (const s of seen.states) entry.states[s] = (entry.states[s] ?? 0) + 1;
    },
    evaluated(check) {
      const c = current?.counts[check.id];
      return !!c && c.passed + c.failed + c.warnings > 0;
    },
  };
  return { ...judge, ...judgeAnswers(judge) };
}
