import { normalise } from '@docproc-kit/contract/contract-text.js';
import { proseRules } from './prose.js';

const quotes = new Map(proseRules.map((r) => [r.id, normalise(r.quote)]));

const TAGS: Record<string, string> = {
  '@response-body': 'every schema keyword of the documented response bodies',
  '@response-header': 'every schema keyword of the documented response headers',
  '@request': 'every schema keyword of the documented request parameters and bodies',
};

/**
 * What decides a check's verdict, one line per rule it declares: a prose rule with the contract's words,
 * a schema rule by its id (which names the keyword: `param:query.page.maximum`), a tag by what it selects;
 * then the check's `basis` when the protocol, not the contract, decides it.
 * @example decidedBy(checks.list.defaults) // ['list.page-default: "1-based page number. Defaults to 1"', ...]
 */
export function decidedBy(check: { rules?: readonly string[]; basis?: string }): string[] {
  const lines = (check.rules ?? []).map((id) => {
    const quote = quotes.get(id);
    if (quote !== undefined) return `${id}: "${quote}"`;
    return TAGS[id] ? `${id}: ${TAGS[id]}` : `${id} (schema keyword)`;
  });
  return check.basis ? [...lines, check.basis] : lines;
}
