import { normalise } from '@docproc-kit/contract/contract-text.js';
import { proseRules } from './prose.js';
import { schemaRules } from './schema-rules.js';

/** One rule of the contract: stated in prose (quoted) or as a machine-readable constraint. */
export interface ContractRule {
  id: string;
  kind: 'prose' | 'schema';
  /** The quote, or the constraint (`maxLength: 255`). */
  text: string;
  /** Where schema rules apply (`@response-body`, `@response-header`, `@request`); empty for prose. */
  tags: string[];
  /**
   * Whether a check selecting the rule by tag (`@response-body`) tests it: schema validation tests every
   * keyword but `default` (an annotation) and a property forbidden by `false` (its own check names it).
   */
  byTag: boolean;
  /** Why no client can observe it, when none can. */
  unobservable?: string;
}

/**
 * Every rule of a parsed contract document: the prose rules listed by hand and every schema constraint.
 * @example contractRules(BUNDLED_DOCUMENT).length
 */
export function contractRules(document: Record<string, unknown>): ContractRule[] {
  return [
    ...proseRules.map((r) => ({
      id: r.id,
      kind: 'prose' as const,
      text: normalise(r.quote),
      tags: [],
      byTag: false,
      ...(r.unobservable ? { unobservable: r.unobservable } : {}),
    })),
    ...schemaRules(document).map((r) => ({
      id: r.id,
      kind: 'schema' as const,
      text: r.text,
      tags: r.tags,
      byTag: !r.id.endsWith('.default') && !r.id.endsWith('.forbidden'),
    })),
  ];
}
