import { type Finding, fail } from '../definitions/check.js';
import { describeResponse } from '../definitions/describe.js';
import type { Exchange } from '../definitions/exchange.js';
import type { WireDocument } from '../transport/api.js';

/**
 * The answer a check wants to one request: a status (`4xx`: any client error), or a problem with its
 * `code`, and why the contract wants it. Most checks are judged by nothing more, so they share this judge.
 */
export interface ExpectedAnswer {
  kind: 'answer';
  exchange: Exchange;
  status: number | '4xx';
  /** The problem's `code`, when the answer must be a problem. */
  code?: string;
  why: string;
}

/** The documents a search for a refused request's token found besides the control upload: there must be none. */
export interface NothingStored {
  kind: 'nothing-stored';
  others: readonly WireDocument[];
}

/** What a check judged by answers is shown. */
export type AnswerObservation = ExpectedAnswer | NothingStored;

const statusHolds = (got: number, wanted: number | '4xx') => (wanted === '4xx' ? got >= 400 && got < 500 : got === wanted);

/**
 * The judge of the checks that an answer's status, problem code or a refused request's absence decide.
 * @example judgeAnswer({ kind: 'answer', exchange, status: 401, why: 'no x-api-key header' })
 */
export function judgeAnswer(observation: AnswerObservation): Finding | undefined {
  if (observation.kind === 'nothing-stored') {
    const { others } = observation;
    return others.length === 0
      ? undefined
      : fail(
          `the rejected request left ${others.length} document(s): ${others.map((d) => `${d.document_id} ${JSON.stringify(d.filename)}`).join(', ')}`,
          'nothing stored by a rejected upload (only the control document matches the token)',
        );
  }
  const { exchange, status, code, why } = observation;
  const got = (exchange.json as { code?: unknown } | undefined)?.code;
  if (statusHolds(exchange.status, status) && (code === undefined || got === code)) return undefined;
  return fail(
    describeResponse(exchange),
    code === undefined ? `${status} (${why})` : `${status} with code ${JSON.stringify(code)} (${why})`,
  );
}
