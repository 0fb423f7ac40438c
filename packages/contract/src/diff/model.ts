/**
 * What a contract diff reports: every structural difference classified for clients written to BASE, apart
 * from it what an implementation of BASE must change to conform to HEAD, and the normative sentences that
 * changed.
 */

/**
 * How a difference treats a client written to BASE and run against a service of HEAD: `breaking`, it can
 * fail; `warning`, some clients fail (those that switch exhaustively on a response enum, say); `compatible`,
 * none does.
 */
export type Severity = 'breaking' | 'warning' | 'compatible';

/** One classified difference between BASE and HEAD. */
export interface Change {
  /** The id of the rule that found it, one of {@link DiffRule.id}. */
  rule: string;
  severity: Severity;
  /** Where: `METHOD /path` then the part, e.g. `GET /api/v1/documents/get_documents query.limit`, or a document place. */
  location: string;
  /** One sentence: why this severity. */
  why: string;
  base?: unknown;
  head?: unknown;
}

/** What an implementation of BASE must change to conform to HEAD; it never makes a diff fail. */
export interface ImplementerChange {
  rule: string;
  location: string;
  what: string;
}

/** A sentence of a description added, removed or reworded, at the place the conformance rules name (`op:listDocuments`, `param:Limit`). */
export interface ProseChange {
  kind: 'added' | 'removed' | 'changed';
  location: string;
  base?: string;
  head?: string;
}

/** The whole comparison of two contracts. */
export interface ContractDiff {
  changes: Change[];
  implementers: ImplementerChange[];
  prose: ProseChange[];
}

/** One rule of the diff: the kind of difference it reports and how severe it is for clients of BASE. */
export interface DiffRule {
  id: string;
  severity: Severity;
  /** One sentence, used as the change's `why`: what changed and what it does to a client of BASE. */
  description: string;
  /** What an implementation of BASE must then do, when it must do anything. */
  implementer?: string;
}

/** Declares a rule table (ids kept as keys for the code, the rules themselves for DIFF_RULES). */
export const defineRules = <K extends string>(rules: Record<K, DiffRule>): Record<K, DiffRule> => rules;

/** Where the rules of one comparison report what they find. */
export interface DiffSink {
  /** Reports a difference by its rule; the rule's implementer note (or `what`) goes to the implementers' list. */
  report(rule: DiffRule, location: string, values?: { base?: unknown; head?: unknown; what?: string }): void;
}

/** A sink collecting into a {@link ContractDiff}'s changes and implementers. */
export function createDiffSink(): DiffSink & { changes: Change[]; implementers: ImplementerChange[] } {
  const changes: Change[] = [];
  const implementers: ImplementerChange[] = [];
  return {
    changes,
    implementers,
    report(rule, location, values = {}) {
      const change: Change = { rule: rule.id, severity: rule.severity, location, why: rule.description };
      if ('base' in values) change.base = values.base;
      if ('head' in values) change.head = values.head;
      changes.push(change);
      const what = values.what ?? rule.implementer;
      if (what) implementers.push({ rule: rule.id, location, what });
    },
  };
}
