import type { Check } from '../checks/index.js';
import { checks } from '../checks/index.js';
import { describeResponse, show } from '../definitions/describe.js';
import type { Exchange } from '../definitions/exchange.js';
import type { Judge } from './judge.js';

/** Where a validation error may name what was wrong: `{in, name}` as the contract's `errors` entries say. */
export interface Named {
  in: string;
  name: string;
}

/** The common shapes of a scenario's own assertions, bound to one judge. */
export interface Expectations {
  /** The exchange has `status`. */
  expectStatus(check: Check, exchange: Exchange, status: number, why: string): void;
  /** The exchange is a problem with `status` and `code`. */
  expectProblem(check: Check, exchange: Exchange, status: number, code: string, why: string): void;
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
      judge.verify(check, exchange.status === status, () => ({
        received: describeResponse(exchange),
        expected: `${status} (${why})`,
        exchange,
      }));
    },
    expectProblem(check, exchange, status, code, why) {
      const got = (exchange.json as { code?: unknown } | undefined)?.code;
      judge.verify(check, exchange.status === status && got === code, () => ({
        received: describeResponse(exchange),
        expected: `${status} with code ${JSON.stringify(code)} (${why})`,
        exchange,
      }));
    },
    expectNamesParameter(exchange, ...accepted) {
      const errors = (exchange.json as { errors?: Array<{ in?: unknown; name?: unknown }> } | undefined)?.errors;
      // Header names are case-insensitive; parameter and field names are not.
      const same = (e: { in?: unknown; name?: unknown }, a: Named) =>
        e.in === a.in &&
        typeof e.name === 'string' &&
        (a.in === 'header' ? e.name.toLowerCase() === a.name.toLowerCase() : e.name === a.name);
      const holds = Array.isArray(errors) && errors.some((e) => typeof e === 'object' && e !== null && accepted.some((a) => same(e, a)));
      judge.verify(checks.validation.namesParameter, holds, () => ({
        received: `errors ${show(errors)}`,
        expected: `errors naming ${accepted.map((a) => `{"in": "${a.in}", "name": "${a.name}"}`).join(' or ')}`,
        exchange,
      }));
    },
  };
}
