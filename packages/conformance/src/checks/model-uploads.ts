import { type Finding, fail } from '../definitions/check.js';
import { show } from '../definitions/describe.js';

// The judges of an upload's answer in the stateful model run. The model (model/judge-upload.ts) knows what
// each Idempotency-Key remembers; it hands that, with the answer, to `upload.idempotency-lifecycle` (an
// upload under a key the sequence used before, or a new one under a key) or to `model.documents` (an upload
// without a key), whose judges share the answers both can get.

/** What an upload was answered: the status, the problem's code, the documents' ids. */
export interface UploadAnswered {
  status: number;
  code: unknown;
  ids: readonly number[];
}

const gotOf = (a: UploadAnswered) => `${a.status}${a.code ? ` ${a.code}` : ''}${a.ids.length ? ` ids ${show(a.ids)}` : ''}`;

/** An upload the model expects refused (`allowed`: the refusals that may win; `keyed`: its key was used before). */
export interface UploadRefused {
  kind: 'refused';
  answer: UploadAnswered;
  allowed: ReadonlyArray<{ status: number; code: string }>;
  key: string | null;
  keyed: boolean;
  /** Whether the key remembers an upload of other files (else only failed uploads used it). */
  remembered: boolean;
}

/** An upload the model expects to create new documents (`keyed`: its key was only used by uploads that failed). */
export interface UploadCreated {
  kind: 'created';
  answer: UploadAnswered;
  parts: number;
  key: string | null;
  keyed: boolean;
}

/** The replay header of an upload that is not a replay: absent. */
export interface NotReplayed {
  kind: 'not-replayed';
  header: string;
  value: string | null;
}

/** What both `upload.idempotency-lifecycle` and `model.documents` judge of an upload. */
export type UploadObservation = UploadRefused | UploadCreated | NotReplayed;

/** An upload the model expects replayed: the first upload's ids, the header saying so, the first upload's names. */
export type ReplayObservation =
  | { kind: 'replay'; answer: UploadAnswered; key: string; ids: readonly number[] }
  | { kind: 'replay-header'; header: string; value: string | null }
  | { kind: 'replay-names'; filenames: readonly string[]; expected: readonly string[] };

export type IdempotencyObservation = UploadObservation | ReplayObservation;

const freshOf = (o: UploadCreated) =>
  `202 with ${o.parts} new document(s)${
    o.keyed ? ` (Idempotency-Key ${show(o.key)} was only used by uploads that failed, which are not remembered)` : ''
  }`;

/** The judge of the answers both checks of an upload share. */
export function judgeUpload(o: UploadObservation): Finding | undefined {
  if (o.kind === 'refused') {
    const { answer } = o;
    if (o.allowed.some((a) => a.status === answer.status && a.code === answer.code)) return undefined;
    return fail(
      gotOf(answer),
      `${o.allowed.map((a) => `${a.status} ${a.code}`).join(' or ')}, and nothing created${
        o.keyed
          ? ` (Idempotency-Key ${show(o.key)} ${o.remembered ? 'was used for other files' : 'was only used by uploads that failed'})`
          : ''
      }`,
    );
  }
  if (o.kind === 'created') return o.answer.status === 202 ? undefined : fail(gotOf(o.answer), freshOf(o));
  return o.value === null ? undefined : fail(`${o.header}: ${show(o.value)}`, `no ${o.header} header: this upload is not a replay`);
}

/** What `model.documents` judges of a new upload besides: one document per part. */
export interface OnePerPart extends Omit<UploadCreated, 'kind'> {
  kind: 'one-per-part';
}

/** Whether an upload created one document per part. */
export function judgeOnePerPart(o: OnePerPart): Finding | undefined {
  return o.answer.ids.length === o.parts ? undefined : fail(gotOf(o.answer), `${freshOf({ ...o, kind: 'created' })}, one per part`);
}

/**
 * The judge of `upload.idempotency-lifecycle`: a repeat replays, other files are refused, a failed upload is not remembered.
 * @example judgeIdempotencyLifecycle({ kind: 'replay-header', header: 'Idempotent-Replayed', value: 'true' })
 */
export function judgeIdempotencyLifecycle(o: IdempotencyObservation): Finding | undefined {
  if (o.kind === 'replay') {
    const same = o.answer.ids.length === o.ids.length && o.answer.ids.every((id, i) => id === o.ids[i]);
    return o.answer.status === 202 && same
      ? undefined
      : fail(gotOf(o.answer), `202 replaying the first upload under Idempotency-Key ${show(o.key)}: ids ${show(o.ids)}, nothing created`);
  }
  if (o.kind === 'replay-header')
    return o.value === 'true' ? undefined : fail(`${o.header}: ${show(o.value)}`, `${o.header}: true on a replay`);
  if (o.kind === 'replay-names')
    return o.filenames.every((f, i) => f === o.expected[i])
      ? undefined
      : fail(`filenames ${show(o.filenames)}`, `the replayed upload's filenames ${show(o.expected)}`);
  return judgeUpload(o);
}
