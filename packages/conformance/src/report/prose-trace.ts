/**
 * Which conformance checks a sentence of the contract feeds: the sentence's place and words matched to the
 * prose rules that quote it (rules/prose.ts), and those rules to the checks declaring them. What
 * `docproc contract diff` names for each added, removed or changed normative sentence, so a wording change
 * that changes behaviour is never silent.
 */
import { normalise, sentencesOf } from '@docproc-kit/contract/contract-text.js';
import type { Contract } from '@docproc-kit/contract/load-contract.js';
import { catalogFor } from '../checks/index.js';
import { type ProseRule, proseRules } from '../rules/prose.js';
import { quotingRules } from '../rules/sentences.js';

/** A check a sentence feeds, as a report names it. */
export interface FedCheck {
  id: string;
  description: string;
}

/** What a sentence of the contract feeds. */
export interface SentenceTrace {
  /**
   * `quoted`: a prose rule quotes the sentence (or part of it) at that place; `similar`: none does, and these
   * are the rules at that place sharing most of its words (a rule whose quote the edit changed); `none`:
   * no rule is near it (an informative sentence, or one no check tests yet).
   */
  match: 'quoted' | 'similar' | 'none';
  /** The prose rule ids. */
  rules: string[];
  checks: FedCheck[];
}

/** The words of a text, lower-cased (what the similarity counts). */
function words(text: string): Set<string> {
  return new Set(
    [
      ...normalise(text)
        .toLowerCase()
        .matchAll(/[\p{L}\p{N}_/-]+/gu),
    ].map((m) => m[0]),
  );
}

/** The share of the quote's words the sentence holds (0 to 1). */
function overlap(quote: string, sentence: string): number {
  const wanted = words(quote);
  const held = words(sentence);
  let n = 0;
  for (const word of wanted) if (held.has(word)) n++;
  return wanted.size === 0 ? 0 : n / wanted.size;
}

/** A rule holding at least this share of its quote's words in a sentence is taken for the edited one. */
const SIMILAR = 0.6;

/** The rules at `where` quoting any of `sentences`, else those most like them. */
function rulesFor(where: string, sentences: readonly string[], rules: readonly ProseRule[]): Pick<SentenceTrace, 'match' | 'rules'> {
  const quoted = [...new Set(sentences.flatMap((s) => sentencesOf(s).flatMap((sentence) => quotingRules({ where, sentence }, rules))))];
  if (quoted.length > 0) return { match: 'quoted', rules: quoted };
  const scored = rules
    .filter((r) => r.where === where)
    .map((r) => ({ id: r.id, score: Math.max(0, ...sentences.map((s) => overlap(r.quote, s))) }))
    .filter((r) => r.score >= SIMILAR);
  if (scored.length === 0) return { match: 'none', rules: [] };
  const best = Math.max(...scored.map((r) => r.score));
  return { match: 'similar', rules: scored.filter((r) => r.score === best).map((r) => r.id) };
}

/**
 * The rules and checks a sentence feeds: `where` is the place in rules/contract-text.ts's vocabulary
 * (`info`, `op:<operationId>`, `schema:<name>.<property>`...), `sentences` its wordings (the old and the new
 * one of a changed sentence); `contract` decides the boundary checks of the catalog.
 * @example checksFedBy(contract, 'info', ['Validation errors are always `400` (never `422`) and list what was wrong in `errors`.']).checks
 */
export function checksFedBy(contract: Contract, where: string, sentences: readonly string[], rules = proseRules): SentenceTrace {
  const found = rulesFor(
    where,
    sentences.filter((s) => s.trim() !== ''),
    rules,
  );
  const checks = catalogFor(contract)
    .filter((check) => check.rules.some((id) => found.rules.includes(id)))
    .map((check) => ({ id: check.id, description: check.description }));
  return { ...found, checks };
}
