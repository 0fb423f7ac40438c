/**
 * What `docproc contract diff` reports: the engine's classified changes, each breaking one with the recorded
 * decision that accepts it (under `--accepted-breaks`), the implementers' list, and every changed
 * normative sentence with the conformance checks it feeds.
 */

import { checksFedBy, type SentenceTrace } from '@docproc-kit/conformance/prose-trace';
import { type Change, type ContractDiff, diffContracts, type ImplementerChange, type ProseChange } from '@docproc-kit/contract/diff';
import { type AcceptedBreak, basePathMajor, type Decision, decisionFor } from './accepted-breaks.js';
import type { ContractSource } from './contract-source.js';

/** A change as reported: a breaking one carries the decision that accepts it, when there is one. */
export type ReportedChange = Change & { accepted?: Decision };

/** A changed sentence and what it feeds. */
export type TracedProse = ProseChange & { feeds: SentenceTrace };

/** The whole report (`--format json` prints it). */
export interface DiffReport {
  base: string;
  head: string;
  counts: { breaking: number; accepted: number; warning: number; compatible: number; prose: number };
  changes: ReportedChange[];
  implementers: ImplementerChange[];
  prose: TracedProse[];
  /** Present under `--accepted-breaks`: the file whose entries were read. */
  acceptedBreaks?: string;
}

/**
 * Diffs two contract sources; with `accepted` (the entries of an accepted-breaks file), a breaking change
 * they or a major base-path bump accept is marked so and no longer fails.
 * @example const report = contractDiffReport(base, head); report.counts.breaking
 */
export function contractDiffReport(
  base: ContractSource,
  head: ContractSource,
  accepted?: { file: string; entries: readonly AcceptedBreak[] },
): DiffReport {
  const diff: ContractDiff = diffContracts(base.raw, head.raw);
  const majors = { base: basePathMajor(base.raw), head: basePathMajor(head.raw) };
  const changes: ReportedChange[] = diff.changes.map((change) => {
    const decision = accepted && change.severity === 'breaking' ? decisionFor(change, accepted.entries, majors) : undefined;
    return decision ? { ...change, accepted: decision } : change;
  });
  const prose = diff.prose.map((change) => ({
    ...change,
    feeds: checksFedBy(head.contract, change.location, [change.base ?? '', change.head ?? '']),
  }));
  const count = (severity: Change['severity']) => changes.filter((c) => c.severity === severity && !c.accepted).length;
  return {
    base: base.label,
    head: head.label,
    counts: {
      breaking: count('breaking'),
      accepted: changes.filter((c) => c.accepted).length,
      warning: count('warning'),
      compatible: count('compatible'),
      prose: prose.length,
    },
    changes,
    implementers: diff.implementers,
    prose,
    ...(accepted ? { acceptedBreaks: accepted.file } : {}),
  };
}
