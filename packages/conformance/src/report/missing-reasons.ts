import type { FixedPartRecord, StoppedRecord } from '../definitions/records.js';

// Why a partition or a document state a run did not reach was not reached. Every one the catalogue names
// is sent by a fixed part (the model run's walk, the oracle's fixed sequences, the scenarios) on every run,
// so a run that reached less says what kept it from there: a deployment's limit, a part left out, a fixed
// part cut (by the deadline, an unavailable target, a failure), or, with every fixed part ended, only the
// random draws a budget bounds.

/** What kept one partition or state from being reached, as the report names it. */
export type MissingCause =
  | 'target too slow'
  | 'run stopped'
  | 'a failure'
  | 'a deployment limit'
  | 'left out'
  | 'a budget'
  | 'no generator';

/** One cause with what it was in this run. */
export interface MissingReason {
  cause: MissingCause;
  detail: string;
}

/** What one test says about the fixed part it played, when it has one. */
export interface FixedPartOutcome {
  part: FixedPartRecord;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  stopped?: StoppedRecord;
  note?: string;
  failedChecks: string[];
}

/** The facts of a run that decide why something was not reached. */
export interface RunFacts {
  profile: string;
  only: readonly string[] | null;
  fixedParts: FixedPartOutcome[];
  /** Why the run stopped early, when it did. */
  stopped?: StoppedRecord;
}

/** The areas whose fixed parts send every partition and state between them. */
const FIXED_AREAS = ['model', 'oracle'];

function stoppedReason(stopped: StoppedRecord, what: string): MissingReason {
  return stopped.reason === 'deadline'
    ? {
        cause: 'target too slow',
        detail: `${what} had not ended when --max-run-s came (${stopped.message}): a target this slow needs a longer --max-run-s`,
      }
    : { cause: 'run stopped', detail: `${what} had not ended when the target became unavailable: ${stopped.message}` };
}

function cutReason({ part, state, stopped, note, failedChecks }: FixedPartOutcome): MissingReason {
  if (stopped) return stoppedReason(stopped, part.what);
  if (state === 'failed')
    return {
      cause: 'a failure',
      detail: `${part.what} stopped at its first failure (${failedChecks.join(', ') || 'a crash'}): once it passes, the run reaches the rest`,
    };
  if (state === 'skipped') return { cause: 'left out', detail: `${part.what} did not run: ${note ?? 'skipped'}` };
  return { cause: 'run stopped', detail: `${part.what} never ended` };
}

/**
 * The reason for each item a run did not reach: `limit` is the deployment's own reason, when it has one.
 * @example const why = missingReason(facts); why({ gap: false }) // { cause: 'a budget', detail: '...' }
 */
export function missingReason(facts: RunFacts): (item: { gap?: boolean; limit?: string }) => MissingReason {
  // Every fixed part cut is named, under the first one's cause.
  const cuts = facts.fixedParts.filter((f) => !f.part.ended).map(cutReason);
  const cut = cuts.length ? { cause: cuts[0]!.cause, detail: cuts.map((c) => c.detail).join('; ') } : undefined;
  const leftOutAreas = facts.only ? FIXED_AREAS.filter((a) => !facts.only!.includes(a)) : [];
  const runWide: MissingReason =
    facts.profile !== 'full'
      ? { cause: 'left out', detail: `the ${facts.profile} profile: the full profile's sequences (--profile full) send it` }
      : leftOutAreas.length
        ? {
            cause: 'left out',
            detail: `--only ${facts.only!.join(',')} left out ${leftOutAreas.join(' and ')}, whose fixed sequences send every partition and state`,
          }
        : cut
          ? cut
          : facts.stopped
            ? stoppedReason(facts.stopped, 'the scenarios')
            : {
                cause: 'a budget',
                detail:
                  "every fixed sequence ended without sending it (the target's answers took them elsewhere), and the random draws did not: --model-time-ms and --oracle-time-ms bound them (--thorough tries longer)",
              };
  return (item) => {
    if (item.gap) return { cause: 'no generator', detail: 'nothing in the suite generates it yet' };
    if (item.limit) return { cause: 'a deployment limit', detail: item.limit };
    return runWide;
  };
}
