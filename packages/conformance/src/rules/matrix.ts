import type { ContractRule } from './index.js';

/** What the matrix reads of a check (the check definitions sit above the rules). */
type RuledCheck = { id: string; rules: readonly string[] };

/** What proves a check can fail: the mutants (broken servers) that fail it, or a unit test. */
export interface Proofs {
  /** Check id -> names of the mutants whose `fails` list it. */
  mutants: ReadonlyMap<string, readonly string[]>;
  /** Check id -> the unit test that makes it fail on a hand-made response. */
  unitTests: ReadonlyMap<string, string>;
  /**
   * Mutant name -> the rules its defect breaks (ids, or `@tag`), for the mutants that say: such a mutant
   * proves only those of its failed checks' rules. One that fails a shared check says.
   */
  rulesOf?: ReadonlyMap<string, readonly string[]>;
}

/** One row of the matrix: a rule, the checks that test it, and what proves those checks. */
export interface RuleRow {
  rule: ContractRule;
  checks: string[];
  /** The names of the mutants (broken servers) that fail the checks: only these prove a rule. */
  proofs: string[];
  /** Why the rule is a gap, when it is one: `no check` or `no mutant`. */
  gap?: 'no check' | 'no mutant';
}

/** Whether a check's `rules` entry selects `rule`: its id, or `@tag` for every tag-covered schema rule with the tag. */
function selects(entry: string, rule: ContractRule): boolean {
  return entry.startsWith('@') ? rule.byTag && rule.tags.includes(entry) : entry === rule.id;
}

/**
 * Traces every rule to the checks declaring it and to the mutants built for it that fail those checks (a
 * mutant that names the rules it breaks proves only those); a rule without a check, or whose checks no such
 * broken server fails, is a gap. A unit test that fails a check on a hand-made answer proves the check's
 * judge, not that a server breaking the rule is caught: it proves no rule.
 * @example ruleMatrix(contractRules(doc), catalog, proofs).filter((r) => r.gap)
 */
export function ruleMatrix(rules: readonly ContractRule[], catalog: readonly RuledCheck[], proofs: Proofs): RuleRow[] {
  return rules.map((rule) => {
    const checks = catalog.filter((c) => c.rules.some((entry) => selects(entry, rule))).map((c) => c.id);
    const builtFor = (mutant: string) => proofs.rulesOf?.get(mutant)?.some((entry) => entry === rule.id || selects(entry, rule)) ?? true;
    const proven = [...new Set(checks.flatMap((id) => (proofs.mutants.get(id) ?? []).filter(builtFor)))];
    const gap = checks.length === 0 ? 'no check' : proven.length === 0 ? 'no mutant' : undefined;
    return { rule, checks, proofs: proven, ...(gap ? { gap } : {}) };
  });
}

/** Rule ids a check declares that no rule of the contract has (a renamed rule, a typo). */
export function unknownRuleIds(rules: readonly ContractRule[], catalog: readonly RuledCheck[]): string[] {
  const ids = new Set(rules.map((r) => r.id));
  const tags = new Set(rules.flatMap((r) => r.tags));
  return catalog.flatMap((c) => c.rules.filter((e) => (e.startsWith('@') ? !tags.has(e) : !ids.has(e))).map((e) => `${c.id}: ${e}`));
}

/** The gaps of a matrix as `<rule id>: <why>` lines, sorted (what the baseline holds). */
export function gapLines(rows: readonly RuleRow[]): string[] {
  return rows
    .filter((r) => r.gap)
    .map((r) => `${r.rule.id}: ${r.gap}${r.rule.unobservable ? ' (unobservable)' : ''}`)
    .sort();
}
