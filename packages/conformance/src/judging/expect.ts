import type { ExpectedAnswer } from '../checks/answer-judge.js';
import type { Check } from '../checks/index.js';
import { checks } from '../checks/index.js';
import type { Named } from '../checks/upload.js';
import type { Exchange } from '../definitions/exchange.js';
import type { Judge } from './judge.js';

export type { Named } from '../checks/upload.js';

/** The common shapes of a scenario's own assertions, bound to one judge: each hands the check its observation. */
export interface Expectations {
  /** The exchange has `status`. */
  expectStatus(check: Check<ExpectedAnswer>, exchange: Exchange, status: number, why: string): void;
  /** The exchange is a problem with `status` and `code`. */
  expectProblem(check: Check<ExpectedAnswer>, exchange: Exchange, status: number, code: string, why: string): void;
  /** A 400 names the offending parameter or field in `errors`; any of `accepted` will do where the contract allows several readings. */
  expectNamesParameter(exchange: Exchange, ...accepted: Named[]): void;
}

/**
 * Binds the assertion helpers to `judge`.
 * @example const { expectStatus } = createExpectations(judge); expectStatus(checks.upload.accepted, exchange, 202, 'a valid upload');
 */
export function createExpectations(judge: Judge): Expectations {
  return {
    expectStatus(check, exchange, status, why) {
      judge.check(check, { kind: 'answer', exchange, status, why }, exchange);
    },
    expectProblem(check, exchange, status, code, why) {
      judge.check(check, { kind: 'answer', exchange, status, code, why }, exchange);
    },
    expectNamesParameter(exchange, ...accepted) {
      const errors = (exchange.json as { errors?: unknown } | undefined)?.errors;
      judge.check(checks.validation.namesParameter, { errors, accepted }, exchange);
    },
  };
}
