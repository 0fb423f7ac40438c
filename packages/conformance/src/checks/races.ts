import { defineCheck, fail } from '../definitions/check.js';
import { show } from '../definitions/describe.js';
import { sameSet, setText } from './sets.js';

/** How one request of a race was answered: its status and problem code, or the ids an upload made. */
export interface RaceAnswer {
  status: number;
  code?: unknown;
  ids?: number[];
}

const said = (answers: RaceAnswer[]) =>
  show(answers.map((a) => (a.ids && a.status === 202 ? `202 ids ${show(a.ids)}` : `${a.status}${a.code ? ` ${String(a.code)}` : ''}`)));

/**
 * How retries released together were answered: `one` (a 202, every other a 409 document_busy), `none` (all
 * 409 document_busy), `apart` (more than one 202, the rest 409 document_busy), `wrong` (anything else).
 * `apart` proves nothing on its own: a target whose runs take milliseconds can end one between two retries
 * that a loaded machine handled apart, so such a race is run again (RETRY_RACES in all); a target that accepts
 * retries while a run goes on answers so every time.
 */
export function retryRaceOutcome(answers: RaceAnswer[]): 'one' | 'none' | 'apart' | 'wrong' {
  const accepted = answers.filter((a) => a.status === 202).length;
  if (!answers.every((a) => a.status === 202 || (a.status === 409 && a.code === 'document_busy'))) return 'wrong';
  return accepted === 0 ? 'none' : accepted === 1 ? 'one' : 'apart';
}
/** How many times retries are released together at most, while every race's answers say `apart`. */
export const RETRY_RACES = 3;

/**
 * The verdict on a scenario's races of retries: fails on the first race answered `wrong` (or `none`, when
 * `noneFails`), passes once one race ended otherwise, and fails when every race was `apart`.
 */
export function judgeRetryRaces(tries: RaceAnswer[][], noneFails: boolean, expected: string) {
  const outcomes = tries.map(retryRaceOutcome);
  const bad = outcomes.findIndex((o) => o === 'wrong' || (noneFails && o === 'none'));
  if (bad >= 0) return fail(said(tries[bad]!), expected);
  if (outcomes.some((o) => o !== 'apart')) return undefined;
  return fail(
    tries.map((answers, i) => `race ${i + 1}: ${said(answers)}`).join('; '),
    `${expected} (raced ${tries.length} times, each time more than one 202)`,
  );
}

/** Requests released together (each written but its last byte, then every last byte at once). */
export const raceChecks = {
  retryFinished: defineCheck<
    { kind: 'answers'; tries: RaceAnswer[][] } | { kind: 'after'; attempts: number | undefined; expected: number }
  >({
    id: 'retry.race-finished',
    profile: 'full',
    area: 'retry',
    description:
      'Of simultaneous retries of a completed or of a failed document exactly one is a 202, every other one a 409 document_busy, and the document counts one more attempt.',
    rules: ['retry.busy-409', 'retry.busy-document-busy', 'retry.starts-new-run'],
    judge: (o) => {
      if (o.kind === 'after')
        return o.attempts === o.expected
          ? undefined
          : fail(`after the race: attempts ${o.attempts}`, `attempts ${o.expected}: one run started by each 202`);
      const others = Math.max(0, (o.tries[0]?.length ?? 1) - 1);
      return judgeRetryRaces(
        o.tries,
        true,
        `one 202 and ${others} x 409 document_busy: the first retry to arrive starts a run, which is in progress for the others`,
      );
    },
  }),
  sameKey: defineCheck<{ kind: 'answers'; answers: RaceAnswer[] } | { kind: 'stored'; token: string; ids: number[]; made: number[] }>({
    id: 'upload.race-same-key',
    profile: 'full',
    area: 'upload',
    description:
      'Simultaneous uploads of the same files under one Idempotency-Key make one set of documents: every 202 carries the same ids, every other answer is a 409 idempotency_key_in_use.',
    rules: ['idempotency.in-use-409', 'idempotency.replay'],
    judge: (o) => {
      if (o.kind === 'stored')
        return sameSet(o.ids, o.made)
          ? undefined
          : fail(`documents named ${o.token}: ${setText(o.ids)}`, `only the one set ${setText(o.made)}`);
      const sets = new Set(o.answers.filter((a) => a.status === 202).map((a) => JSON.stringify(a.ids)));
      const others = o.answers.filter((a) => a.status !== 202);
      return sets.size === 1 && others.every((a) => a.status === 409 && a.code === 'idempotency_key_in_use')
        ? undefined
        : fail(
            said(o.answers),
            'one set of documents: the first upload to arrive creates it, each other one is its replay or a 409 idempotency_key_in_use',
          );
    },
  }),
  distinctIds: defineCheck<
    | { kind: 'created'; ids: number[]; names: string[] }
    | { kind: 'read-back'; id: number; status: number; filename: unknown; name: string }
    | { kind: 'new-id'; id: number; name: string; earlier: string | undefined }
  >({
    id: 'upload.distinct-ids',
    profile: 'full',
    area: 'upload',
    description:
      'Every document an upload creates gets an id no other document has or had: within one upload, across uploads sent at the same moment, across tenants; each id reads back as its own file.',
    rules: ['document.ids-never-reused'],
    judge: (o) => {
      if (o.kind === 'new-id')
        return o.earlier === undefined
          ? undefined
          : fail(`document ${o.id} for ${show(o.name)}`, `a new id: ${o.id} was already given to ${o.earlier}`);
      if (o.kind === 'read-back')
        return o.status === 200 && o.filename === o.name
          ? undefined
          : fail(
              `document ${o.id} reads back as ${o.status} ${show(o.filename)}`,
              `document ${o.id} is ${show(o.name)}, the one file its upload sent`,
            );
      return new Set(o.ids).size === o.ids.length && o.ids.length === o.names.length
        ? undefined
        : fail(`ids ${show(o.ids)} for ${show(o.names)}`, `${o.names.length} different ids, one per uploaded file`);
    },
  }),
} as const;
