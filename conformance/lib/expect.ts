import type { Check } from './checks/index.js';
import { checks } from './checks/index.js';
import type { Exchange } from './exchange.js';
import { show } from './failure.js';
import { describeResponse } from './response-checks.js';
import { verify } from './verify.js';

/**
 * Verifies the status of an exchange for a scenario's own check.
 * @example expectStatus(checks.upload.accepted, exchange, 202, 'a valid upload');
 */
export function expectStatus(check: Check, exchange: Exchange, status: number, why: string): void {
  verify(check, exchange.status === status, () => ({ received: describeResponse(exchange), documented: `${status} (${why})`, exchange }));
}

/**
 * Verifies a problem response: status and `code`.
 * @example expectProblem(checks.get.unknownId, exchange, 404, 'not_found', 'an id that does not exist');
 */
export function expectProblem(check: Check, exchange: Exchange, status: number, code: string, why: string): void {
  const got = (exchange.json as { code?: unknown } | undefined)?.code;
  verify(check, exchange.status === status && got === code, () => ({
    received: describeResponse(exchange),
    documented: `${status} with code ${JSON.stringify(code)} (${why})`,
    exchange,
  }));
}

/**
 * Verifies that a 400 names the offending parameter or field in `errors`.
 * @example expectNamesParameter(exchange, 'query', 'limit');
 */
export function expectNamesParameter(exchange: Exchange, where: string, name: string): void {
  const errors = (exchange.json as { errors?: Array<{ in?: unknown; name?: unknown }> } | undefined)?.errors;
  const holds = Array.isArray(errors) && errors.some((e) => e.in === where && e.name === name);
  verify(checks.validation.namesParameter, holds, () => ({
    received: `errors ${show(errors)}`,
    documented: `errors naming {"in": "${where}", "name": "${name}"}`,
    exchange,
  }));
}

/** Orders two values for a Received/Documented pair as sorted, comma-separated lists. */
export function setText(values: Iterable<number | string>): string {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.length ? `[${sorted.join(', ')}]` : '[] (none)';
}

/** Whether two collections hold the same members. */
export function sameSet<T>(a: Iterable<T>, b: Iterable<T>): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}
