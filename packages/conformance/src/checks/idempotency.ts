import { defineCheck, fail } from '../definitions/check.js';
import { show } from '../definitions/describe.js';
import type { WireDocument } from '../transport/api.js';
import { type AnswerObservation, type ExpectedAnswer, judgeAnswer } from './answer-judge.js';
import { sameSet, setText } from './sets.js';

/** The optional Idempotency-Key of POST /documents/upload_files (IETF httpapi draft semantics). */
export const idempotencyChecks = {
  replay: defineCheck<
    | { kind: 'answer'; status: number; firstIds: number[]; againIds: number[] }
    | { kind: 'stored'; token: string; ids: number[]; firstIds: number[] }
    | { kind: 'late'; documents: WireDocument[] }
  >({
    id: 'upload.idempotent-replay',
    profile: 'full',
    area: 'upload',
    description:
      'The same upload sent again under the same Idempotency-Key is a 202 with the same document ids, and creates no new document; sent after the documents were processed, it still replays the first 202 (every document `processing`).',
    rules: ['idempotency.replay', 'upload.202-one-per-file'],
    judge: (o) => {
      if (o.kind === 'late') {
        const moved = o.documents.filter((d) => d.status !== 'processing');
        return moved.length === 0
          ? undefined
          : fail(
              `a replay after processing: ${show(o.documents.map((d) => `${d.document_id} ${d.status}`))}`,
              'the first 202 replayed: every document processing, as it came back then',
            );
      }
      if (o.kind === 'answer')
        return o.status === 202 && JSON.stringify(o.againIds) === JSON.stringify(o.firstIds)
          ? undefined
          : fail(`${o.status} with ids ${show(o.againIds)}`, `202 replaying the first response: ids ${show(o.firstIds)}`);
      return sameSet(o.ids, o.firstIds)
        ? undefined
        : fail(`documents named ${o.token}: ${setText(o.ids)}`, `only the first upload's ${setText(o.firstIds)}`);
    },
  }),
  replayHeader: defineCheck<{ header: string; value: string | null; replay: boolean }>({
    id: 'upload.replay-header',
    profile: 'full',
    area: 'upload',
    description:
      'A replayed upload carries the documented replay header (`Idempotent-Replayed: true`); the first upload under a key does not.',
    rules: ['idempotency.replay-header', 'header:Idempotent-Replayed.enum'],
    judge: ({ header, value, replay }) =>
      value === (replay ? 'true' : null)
        ? undefined
        : fail(
            `${replay ? 'replay' : 'first upload'}: ${header} ${show(value)}`,
            replay ? `${header}: true on a replay` : `no ${header} on the first upload under a key`,
          ),
  }),
  reused: defineCheck<AnswerObservation>({
    id: 'upload.idempotency-key-reused',
    profile: 'full',
    area: 'upload',
    description:
      'Other files under an Idempotency-Key already used (the same files in another order, and a file of the same name with other bytes, included) are a 409 idempotency_key_reused and create nothing.',
    rules: ['idempotency.reused-409', 'errors.409-idempotency-nothing-stored'],
    judge: judgeAnswer,
  }),
  inUse: defineCheck<
    | ExpectedAnswer
    | { kind: 'both-accepted'; a: number[]; b: number[] }
    | { kind: 'stored'; token: string; ids: number[]; expected: number[] }
  >({
    id: 'upload.idempotency-key-in-use',
    profile: 'full',
    area: 'upload',
    description:
      'A repeat that arrives while the first upload under its key is still in flight is a 409 idempotency_key_in_use (or, once the first has finished, its replay), never a second set of documents.',
    rules: ['idempotency.in-use-409'],
    judge: (o) => {
      if (o.kind === 'answer') return judgeAnswer(o);
      if (o.kind === 'both-accepted')
        return JSON.stringify(o.a) === JSON.stringify(o.b)
          ? undefined
          : fail(
              `two 202s with different ids ${show(o.a)} and ${show(o.b)}`,
              'one set of documents: a 409 idempotency_key_in_use, or a replay of the first',
            );
      return sameSet(o.ids, o.expected) ? undefined : fail(`documents named ${o.token}: ${setText(o.ids)}`, `only ${setText(o.expected)}`);
    },
  }),
  afterFailure: defineCheck<{
    refused: number;
    status: number;
    code: unknown;
    replayed: string | null;
    sent: string[];
    documents: WireDocument[];
  }>({
    id: 'upload.idempotency-key-after-failure',
    profile: 'full',
    area: 'upload',
    description:
      'An upload refused under an Idempotency-Key (415, 400) is not remembered: the same key with valid files is then a 202 that creates their documents, not a replay of the refusal and not a 409.',
    rules: ['idempotency.failure-forgotten'],
    judge: ({ refused, status, code, replayed, sent, documents }) => {
      const names = documents.map((d) => d.filename);
      return status === 202 && replayed === null && JSON.stringify(names) === JSON.stringify(sent)
        ? undefined
        : fail(
            `${status}${typeof code === 'string' ? ` ${code}` : ''}${replayed === null ? '' : ` (Idempotent-Replayed: ${replayed})`}: documents ${show(names)}`,
            `202 with new documents ${show(sent)}: the earlier ${refused} under the same key was not remembered`,
          );
    },
  }),
  keyAsText: defineCheck<{
    key: string;
    status: number;
    code: unknown;
    replayed: string | null;
    keyless: number[];
    /** The other upload whose documents these must not be (the keyless one unless told). */
    other?: string;
    sent: string[];
    documents: WireDocument[];
  }>({
    id: 'upload.idempotency-key-as-text',
    profile: 'full',
    area: 'upload',
    description:
      'An Idempotency-Key is the text it is: an upload under `undefined`, `null`, `__proto__` or `constructor`, sent right after the same files went up without a key, is a 202 with documents of its own: new ones, or (`Idempotent-Replayed: true`) those of an earlier run that sent the same files under the key, never those of the keyless upload (a 409 `idempotency_key_reused` there is taken as the key used for other files within its 24 hours, an `idempotency_key_in_use` as another run sending the same files at that moment: sent again, or not judged). Keys are compared exactly: other files under a key that differs from a used one only in letter case are a 202 with documents of their own.',
    rules: ['idempotency.replay', 'idempotency.reused-409'],
    judge: ({ key, status, code, replayed, keyless, other = 'the upload without a key', sent, documents }) => {
      const ids = documents.map((d) => d.document_id);
      const names = documents.map((d) => d.filename);
      return status === 202 &&
        (replayed === null || replayed.trim() === 'true') &&
        ids.length === sent.length &&
        !ids.some((id) => keyless.includes(id)) &&
        JSON.stringify(names) === JSON.stringify(sent)
        ? undefined
        : fail(
            `Idempotency-Key ${show(key)}: ${status}${typeof code === 'string' ? ` ${code}` : ''}${replayed === null ? '' : ` (Idempotent-Replayed: ${replayed})`}, documents ${show(ids)} ${show(names)}`,
            `202 with documents ${show(sent)} of its own (new, or an earlier run's under this key): ${other} (ids ${show(keyless)}) is no upload under it`,
          );
    },
  }),
} as const;
