import { assertCheckId, type Check, type Finding, fail } from '../definitions/check.js';
import { describeResponse } from '../definitions/describe.js';
import type { Exchange } from '../definitions/exchange.js';
import { problemCode, uploaded } from '../transport/api.js';
import type { BoundaryCase, BoundaryRule } from './boundary-cases.js';

/** One boundary case as sent, and its answer. */
export interface BoundaryObservation {
  rule: BoundaryRule;
  case: BoundaryCase;
  exchange: Exchange;
}

/**
 * Whether the answer accepted the value: a 2xx; on a path or header also a 404 or 409, which the contract
 * gives only to values that passed validation (no such document, a key already used); an uploaded
 * filename must come back exactly as sent.
 */
function accepted({ rule, case: c, exchange }: BoundaryObservation): boolean {
  if (rule.location === 'filename') return exchange.status === 202 && uploaded(exchange)[0]?.filename === c.value;
  if (exchange.status >= 200 && exchange.status < 300) return true;
  return rule.location !== 'query' && (exchange.status === 404 || exchange.status === 409);
}

/**
 * For a reading the contract leaves open, what an accepting answer read the value as, where the answer shows
 * it (a list echoes `page` and `limit` in `pagination`), or undefined when it does not show.
 */
function readAs({ rule, exchange }: BoundaryObservation): unknown {
  const pagination = (exchange.json as { pagination?: Record<string, unknown> } | undefined)?.pagination;
  return rule.location === 'query' && pagination && typeof pagination === 'object' ? pagination[rule.name] : undefined;
}

/**
 * Judges one case: an accepted value must not be refused, a refused one must be a 400 (with the problem code
 * the contract names for it, where it names one), and one the contract lets a service read either way must
 * be a 400 or answered as its plain spelling would be.
 */
export function judgeBoundary(o: BoundaryObservation): Finding | undefined {
  if (o.case.expect === 'refuse') {
    const code = o.case.code;
    return o.exchange.status === 400 && (code === undefined || problemCode(o.exchange) === code)
      ? undefined
      : fail(
          describeResponse(o.exchange),
          `400${code ? ` with code ${JSON.stringify(code)}` : ''} (${o.case.label} is outside the contract)`,
        );
  }
  if (o.case.expect === 'either') {
    if (o.exchange.status === 400) return undefined;
    const read = readAs(o);
    const plain = Number(o.case.sameAs);
    if (accepted(o) && (read === undefined || read === plain)) return undefined;
    return fail(
      `${describeResponse(o.exchange)}${read !== undefined ? ` (read as ${JSON.stringify(read)})` : ''}`,
      `a 400, or the answer ${o.case.sameAs} gets (${o.case.label} may be read either way, but only as ${o.case.sameAs})`,
    );
  }
  if (accepted(o)) return undefined;
  const how =
    o.rule.location === 'filename'
      ? '202 with the filename exactly as sent'
      : o.rule.location === 'query'
        ? 'a 2xx'
        : 'anything but a 400: a 2xx, or a 404/409 for a value that names nothing or a key already used';
  return fail(describeResponse(o.exchange), `accepted, ${how} (${o.case.label} is within the contract)`);
}

/**
 * The check of one boundary rule (its id, description and rules come from the contract, the judge from here).
 * @example boundaryCheck(boundaryRules(contract).find((r) => r.checkId === 'boundary.limit-maximum')!)
 */
export function boundaryCheck(rule: BoundaryRule): Check<BoundaryObservation> {
  assertCheckId(rule.checkId, 'boundary');
  return Object.freeze({
    id: rule.checkId,
    profile: rule.cases.some((c) => c.profile === 'contract') ? 'contract' : 'full',
    area: 'boundary',
    description: rule.description,
    rules: Object.freeze([...rule.ruleIds]),
    judge: judgeBoundary,
  });
}
