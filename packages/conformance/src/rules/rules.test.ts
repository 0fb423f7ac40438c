import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledMatrix } from '../../scripts/bundled-matrix.js';
import { descriptionAt, normalise } from './contract-text.js';
import { decidedBy } from './decided-by.js';
import { gapLines, unknownRuleIds } from './matrix.js';
import { proseRules } from './prose.js';
import { contractSentences, parseSentenceBaseline, quotingRules } from './sentences.js';

const { document, catalog, rules, matrix } = await bundledMatrix();
const baselineFile = new URL('./gaps-baseline.txt', import.meta.url);

describe('the rules of the contract', () => {
  it.each(proseRules.map((r) => [r.id, r]))('%s quotes words the contract still says', (_, rule) => {
    const description = descriptionAt(document, rule.where);
    expect(description, `no description at ${rule.where}`).toBeDefined();
    expect(description, `the contract no longer says this at ${rule.where}: update packages/conformance/src/rules/prose.ts`).toContain(
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
      'closed gaps: remove them from packages/conformance/src/rules/gaps-baseline.txt (UPDATE_GAPS=1 npx vitest run packages/conformance/src/rules)',
    ).toEqual([]);
  });
});

describe('every sentence of the contract', () => {
  const sentences = contractSentences(document);
  const key = (where: string, sentence: string) => `${where} | ${sentence}`;
  const listed = parseSentenceBaseline(readFileSync(new URL('./sentences-baseline.txt', import.meta.url), 'utf8')).map((l) => ({
    key: key(l.where, l.sentence),
    why: l.why,
  }));
  const untraced = sentences.filter((s) => quotingRules(s, proseRules).length === 0).map((s) => key(s.where, s.sentence));

  it('is found in the descriptions (the split finds them all)', () => {
    expect(sentences.length).toBeGreaterThan(100);
    expect(sentences.filter((s) => s.where === 'info').map((s) => s.sentence)).toContain('A retry while a run is in progress is a `409`.');
  });

  it('is quoted by a rule a check tests, or listed in sentences-baseline.txt with the reason', () => {
    expect(
      untraced.filter((k) => !listed.some((l) => l.key === k)),
      'new untraced sentences: quote each in rules/prose.ts and give it a check, or list it in rules/sentences-baseline.txt with why no check can test it',
    ).toEqual([]);
  });

  it('leaves the list only what is still untraced (it may only shrink)', () => {
    expect(
      listed.filter((l) => !untraced.includes(l.key)).map((l) => l.key),
      'listed sentences now quoted by a rule, or no longer in the contract: remove them from rules/sentences-baseline.txt',
    ).toEqual([]);
  });

  it('lists each with a reason of a known kind, and restates only rules that exist', () => {
    const ids = new Set(rules.map((r) => r.id));
    const bad = listed.filter((l) => {
      const restated = /^restates ([^(]+)/.exec(l.why)?.[1];
      if (restated !== undefined) return restated.split(',').some((id) => !ids.has(id.trim()));
      return !/^(informative|unobservable|gap): \S/.test(l.why);
    });
    expect(bad.map((l) => `${l.key} | ${l.why}`)).toEqual([]);
  });
});
