import { type Finding, fail } from '../definitions/check.js';

// The judges of a document's timestamps in the stateful model run. The model (model/judge-*.ts) knows what
// it saw of the document before and when the suite waited for the answer; it hands that, with what the
// answer shows, to these judges. Instants are nanoseconds since the epoch, as the model reads them.

/** A document as a failure names it: the sequence's alias and the target's id. */
export interface DocumentName {
  alias: string;
  id: number;
}

const nameOf = (doc: DocumentName) => `${doc.alias} (document ${doc.id})`;

/**
 * One timestamp an answer shows, and the time the suite was waiting for that answer: the contract's
 * timestamps name instants ("When the document was uploaded", "When the last run finished") the suite's
 * clock observed, so each falls inside that time, give or take the skew the user allows between the clocks.
 */
export interface ClockObservation {
  /** Which document, as the failure names it (`D2, retried`, `part 1, uploaded`). */
  what: string;
  field: 'created_at' | 'updated_at' | 'processed_at';
  value: string;
  /** The instant `value` names. */
  at: bigint;
  /** `during`: between sending the request and receiving the answer; `not-after`: not after receiving it. */
  bound: 'during' | 'not-after';
  /** When the suite sent the request and received the answer (ms since the epoch, on its own clock). */
  window: { sent: number; received: number };
  /** --clock-skew-ms. */
  skewMs: number;
}

const MS = 1_000_000n;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The judge of `lifecycle.timestamps-on-the-clock`: a server writing local time as UTC, seconds as
 * milliseconds, or a fixed or stale instant fails it while every comparison among its own timestamps holds.
 * @example judgeOnTheClock({ what: 'D1', field: 'created_at', value, at, bound: 'during', window: { sent, received }, skewMs: 1000 })
 */
export function judgeOnTheClock(o: ClockObservation): Finding | undefined {
  const { sent, received } = o.window;
  const latest = BigInt(Math.ceil(received + o.skewMs)) * MS;
  const earliest = BigInt(Math.floor(sent - o.skewMs)) * MS;
  if (o.at <= latest && (o.bound === 'not-after' || o.at >= earliest)) return undefined;
  return fail(
    `${o.what}: ${o.field} ${o.value}`,
    o.bound === 'during'
      ? `between ${iso(sent)} and ${iso(received)} (the request was sent and answered then, on the suite's clock), within --clock-skew-ms ${o.skewMs}`
      : `not after ${iso(received)} (when the answer arrived, on the suite's clock), within --clock-skew-ms ${o.skewMs}`,
  );
}

/**
 * A document as a read or a list shows it, beside what the model last saw of it: how it moved since
 * (`processing`: still or again processing; `unchanged`: finished as before; `ended`: its run has ended).
 */
export interface TimesSeen {
  kind: 'seen';
  doc: DocumentName;
  transition: 'processing' | 'unchanged' | 'ended';
  status: string;
  updatedAt: string;
  updated: bigint;
  processedAt: string | null;
  processed: bigint | null;
  /** What the model saw before: the document's `updated_at` and `processed_at` instants. */
  before: { updated: bigint; processed: bigint | null };
  /** `updated_at` of the upload or retry that started the current run: the run cannot end before it. */
  runStart: bigint;
}

/** A new document of an upload: its `updated_at` is not before its `created_at`. */
export interface UploadedTimes {
  kind: 'uploaded';
  part: number;
  createdAt: string;
  created: bigint;
  updatedAt: string;
  updated: bigint;
}

/** A retry's answer: the new run changed the document, so `updated_at` is later than before the retry. */
export interface RetriedTimes {
  kind: 'retried';
  alias: string;
  updatedAt: string;
  updated: bigint;
  before: bigint;
}

export type UpdatedAtObservation = TimesSeen | UploadedTimes | RetriedTimes;

/** The judge of `lifecycle.updated-at-moves`. */
export function judgeUpdatedAtMoves(o: UpdatedAtObservation): Finding | undefined {
  if (o.kind === 'uploaded')
    return o.updated >= o.created
      ? undefined
      : fail(`part ${o.part}: created_at ${o.createdAt}, updated_at ${o.updatedAt}`, 'updated_at not before created_at');
  if (o.kind === 'retried')
    return o.updated > o.before
      ? undefined
      : fail(`updated_at ${o.updatedAt}`, `later than ${o.alias}'s updated_at before the retry (the retry started a new run)`);
  const name = nameOf(o.doc);
  const { updated, processed, before } = o;
  if (o.transition === 'processing')
    return updated >= before.updated
      ? undefined
      : fail(`${name}: updated_at ${o.updatedAt}`, 'not before the updated_at seen earlier: it never goes back');
  if (o.transition === 'unchanged')
    return updated === before.updated
      ? undefined
      : fail(`${name}: updated_at ${o.updatedAt}`, `the updated_at seen before: nothing about ${o.doc.alias} changed since`);
  if (processed === null || updated < processed)
    return fail(`${name} ${o.status}: updated_at ${o.updatedAt}, processed_at ${o.processedAt}`, 'updated_at not before processed_at');
  return updated > before.updated || (updated === before.updated && updated === processed)
    ? undefined
    : fail(
        `${name} ${o.status}: updated_at ${o.updatedAt}, as while it was processing`,
        'a later updated_at: the run ending changed the document',
      );
}

/** A document's `created_at` beside the one its upload gave: it never changes (`on`: the answer showing it). */
export interface CreatedAtKept {
  kind: 'created-at';
  on: 'retry' | 'read';
  doc: DocumentName;
  createdAt: string;
  created: bigint | undefined;
  uploaded: bigint;
}

export type ProcessedAtObservation = TimesSeen | CreatedAtKept;

/** The judge of `lifecycle.processed-at` (and of `created_at`, which it also holds still). */
export function judgeProcessedAt(o: ProcessedAtObservation): Finding | undefined {
  if (o.kind === 'created-at') {
    if (o.created === o.uploaded) return undefined;
    return o.on === 'retry'
      ? fail(`created_at ${o.createdAt}`, 'created_at as the upload gave it')
      : fail(`${nameOf(o.doc)}: created_at ${o.createdAt}`, 'created_at as the upload gave it: it never changes');
  }
  const name = nameOf(o.doc);
  const { processed } = o;
  if (o.transition === 'processing')
    return processed === null
      ? undefined
      : fail(`${name} processing: processed_at ${o.processedAt}`, 'processed_at null while processing: the run has not ended');
  if (o.transition === 'unchanged')
    return processed === o.before.processed
      ? undefined
      : fail(
          `${name}: processed_at ${o.processedAt}`,
          `the processed_at seen before: the run ended once, and nothing happened to ${o.doc.alias} since`,
        );
  return processed !== null && processed >= o.runStart
    ? undefined
    : fail(
        `${name} ${o.status}: processed_at ${o.processedAt}`,
        'when the run ended: not before it started (the updated_at of the upload or retry that started it)',
      );
}
