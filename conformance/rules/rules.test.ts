import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledMatrix } from '../scripts/bundled-matrix.js';
import { descriptionAt, normalise } from './contract-text.js';
import { decidedBy } from './decided-by.js';
import { gapLines, unknownRuleIds } from './matrix.js';
import { proseRules } from './prose.js';

const { document, catalog, rules, matrix } = await bundledMatrix();
const baselineFile = new URL('./gaps-baseline.txt', import.meta.url);

describe('the rules of the contract', () => {
  it.each(proseRules.map((r) => [r.id, r]))('%s quotes words the contract still says', (_, rule) => {
    const description = descriptionAt(document, rule.where);
    expect(description, `no description at ${rule.where}`).toBeDefined();
    expect(description, `the contract no longer says this at ${rule.where}: update conformance/rules/prose.ts`).toContain(
      normalise(rule.quote),
    );
  });

  it('decide every check: each names the rules (or the protocol) its failures rest on', () => {
    expect(catalog.filter((c) => decidedBy(c).length === 0).map((c) => c.id)).toEqual([]);
  });

  it('have unique ids', () => {
    const ids = rules.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('are the only ones checks declare (no renamed or mistyped rule id)', () => {
    expect(unknownRuleIds(rules, catalog)).toEqual([]);
  });

  it('leave only the committed gaps: the list may shrink, never grow', () => {
    const gaps = gapLines(matrix);
    // UPDATE_GAPS=1 rewrites the baseline, for a change that closes gaps (review the diff: it must only lose lines).
    if (process.env.UPDATE_GAPS === '1') writeFileSync(baselineFile, `${gaps.join('\n')}\n`);
    const baseline = readFileSync(baselineFile, 'utf8').split('\n').filter(Boolean);
    expect(
      gaps.filter((g) => !baseline.includes(g)),
      'new gaps: give each rule a check and a mutant that proves it (or, if no client can observe it, say why in rules/prose.ts)',
    ).toEqual([]);
    expect(
      baseline.filter((g) => !gaps.includes(g)),
      'closed gaps: remove them from conformance/rules/gaps-baseline.txt (UPDATE_GAPS=1 npx vitest run conformance/rules)',
    ).toEqual([]);
  });
});
