import { type Finding, fail } from '../definitions/check.js';
import { show } from '../definitions/describe.js';
import type { DocumentName } from './model-times.js';

// What the model knows of a document's state, beside what an answer shows of it. When the model learnt that
// state from an earlier list (it narrowed the document's possible states from the list's totals), a
// contradiction shows that list or this answer wrong, and `model.lists` is the check that fails; otherwise
// `model.documents` does. Both checks' judges take these observations.

/** What the model knows of a document's current run, and why it knows it. */
export interface KnownState {
  doc: DocumentName;
  /** The kind of file (`word`, `blank`, ...): what it can end as. */
  fileKind: string;
  /** The status the document was last seen in. */
  lastSeen: string;
  /** Whether its current run may still be going. */
  mayProcess: boolean;
  /** The statuses the current run may end (or have ended) in. */
  outcomes: readonly string[];
  /** The list the model inferred the state from, when it did not see it. */
  inferredFrom?: string;
}

/** A retry's answer: a finished document's retry starts a new run (202). */
export interface RetryOfFinished extends KnownState {
  kind: 'retry-finished';
  status: number;
  code: unknown;
}

/** The status a read or a list shows (with `blame`: the list that told the model otherwise is the one to blame). */
export interface StatusShown extends KnownState {
  kind: 'status-shown';
  status: string;
  /** Whether the model's outcomes came from a list, so the note names it. */
  blame: boolean;
}

export type KnownStateObservation = RetryOfFinished | StatusShown;

const noteOf = (o: KnownState) =>
  o.inferredFrom
    ? `what the model knew came from an earlier list (${o.inferredFrom}): that list and this answer cannot both be right`
    : undefined;

/** What the model last knew, in words. */
const wasOf = (o: KnownState) =>
  o.mayProcess ? `${o.lastSeen}, its run may have ended since` : `${o.outcomes.join(' or ')} (its run has ended)`;

/** The judge of what the model knows of a document's state (shared by `model.lists` and `model.documents`). */
export function judgeKnownState(o: KnownStateObservation): Finding | undefined {
  const note = noteOf(o);
  if (o.kind === 'retry-finished') {
    if (o.status === 202) return undefined;
    return fail(
      `${o.status} ${show(o.code ?? '')}`,
      `202: ${o.doc.alias} has finished (${o.outcomes.join(' or ')}), so a retry starts a new run`,
      note,
    );
  }
  const name = `${o.doc.alias} (document ${o.doc.id})`;
  if (o.status === 'processing')
    return o.mayProcess ? undefined : fail(`${name} is processing`, `${wasOf(o)}: only a retry starts a new run`, note);
  if (o.outcomes.includes(o.status) && (o.lastSeen === 'processing' || o.lastSeen === o.status)) return undefined;
  return fail(
    `${name} is ${o.status}`,
    `${o.lastSeen === 'processing' ? o.outcomes.join(' or ') : o.lastSeen} (${o.fileKind} file, last seen ${wasOf(o)})`,
    o.blame ? note : undefined,
  );
}
