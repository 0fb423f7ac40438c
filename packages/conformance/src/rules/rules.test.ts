import { readFileSync, writeFileSync } from 'node:fs';
import { contractSentences, descriptionAt, normalise } from '@docproc-kit/contract/contract-text.js';
import { describe, expect, it } from 'vitest';
import { allMutants } from '../../proofs/mutant-catalog.js';
import { bundledMatrix } from '../../scripts/bundled-matrix.js';
import { decidedBy } from './decided-by.js';
import { gapLines, ruleMatrix, unknownRuleIds } from './matrix.js';
import { proseRules } from './prose.js';
import { clausesOf, parseSentenceBaseline, untracedClauses } from './sentences.js';

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

describe('every clause of every sentence of the contract', () => {
  const sentences = contractSentences(document);
  const key = (where: string, sentence: string) => `${where} | ${sentence}`;
  const listed = parseSentenceBaseline(readFileSync(new URL('./sentences-baseline.txt', import.meta.url), 'utf8')).map((l) => ({
    key: key(l.where, l.sentence),
    why: l.why,
  }));
  const untraced = sentences.flatMap((s) => untracedClauses(s, proseRules).map((c) => key(s.where, c.text)));

  it('is found in the descriptions (the split finds them all)', () => {
    expect(sentences.length).toBeGreaterThan(100);
    expect(sentences.filter((s) => s.where === 'info').map((s) => s.sentence)).toContain('A retry while a run is in progress is a `409`.');
  });

  it('is quoted whole by a rule a check tests, or listed in sentences-baseline.txt with the reason', () => {
    expect(
      untraced.filter((k) => !listed.some((l) => l.key === k)),
      'new untraced clauses: quote each in rules/prose.ts and give it a check, or list it in rules/sentences-baseline.txt with why no check can test it',
    ).toEqual([]);
  });

  it('leaves the list only what is still untraced (it may only shrink)', () => {
    expect(
      listed.filter((l) => !untraced.includes(l.key)).map((l) => l.key),
      'listed clauses now quoted by a rule, or no longer in the contract: remove them from rules/sentences-baseline.txt',
    ).toEqual([]);
  });

  it('lists each with a reason of a known kind, and restates only rules that have checks', () => {
    const checked = new Set(matrix.filter((row) => row.checks.length > 0).map((row) => row.rule.id));
    const bad = listed.filter((l) => {
      const restated = /^restates ([^(]+)/.exec(l.why)?.[1];
      if (restated !== undefined) return restated.split(',').some((id) => !checked.has(id.trim()));
      return !/^(informative|unobservable|gap): \S/.test(l.why);
    });
    expect(
      bad.map((l) => `${l.key} | ${l.why}`),
      'a restated rule with no check traces nothing: say why the clause is unobservable, or check the rule',
    ).toEqual([]);
  });
});

describe('a sentence is cut into clauses', () => {
  it.each([
    ['Defaults to 1; a page past the end returns an empty list.', ['Defaults to 1', 'a page past the end returns an empty list.']],
    ['A retry starts a new run: the document is `processing` again.', ['A retry starts a new run', 'the document is `processing` again.']],
    ['It is echoed, so logs can be joined, and kept.', ['It is echoed', 'so logs can be joined', 'and kept.']],
    ['A list of a, b and c stays one clause.', ['A list of a, b and c stays one clause.']],
    ['Inside (a; b: c, and d) and `x; y` nothing breaks.', ['Inside (a; b: c, and d) and `x; y` nothing breaks.']],
  ])('%s', (sentence, clauses) => {
    expect(clausesOf(sentence).map((c) => c.text)).toEqual(clauses);
  });
});

describe('a clause is traced only when quoted whole', () => {
  const sentence = {
    where: 'info',
    sentence: 'Processing extracts the text layer of PDFs, reads PDF pages without one (scans) and images (JPEG, PNG) with OCR.',
  };
  const textLayer = { where: 'info', quote: 'Processing extracts the text layer of PDFs' };
  const ocr = { where: 'info', quote: 'reads PDF pages without one (scans) and images (JPEG, PNG) with OCR' };
  it.each([
    ['no rule', [], 1],
    ['a rule quoting only the text layer (a partial quote traces nothing)', [textLayer], 1],
    ['the text layer and the OCR rules together', [textLayer, ocr], 0],
    [
      'rules at another place',
      [
        { ...textLayer, where: 'op:listDocuments' },
        { ...ocr, where: 'op:listDocuments' },
      ],
      1,
    ],
  ])('%s: %i untraced', (_, quoting, untraced) => {
    expect(untracedClauses(sentence, quoting)).toHaveLength(untraced);
  });

  it('needs no quote of a bold label or of the words joining two quoted parts', () => {
    const filters = { where: 'op:x', sentence: '**Filters.** `status_filter` keeps one status and `search` keeps matches.' };
    const rules = [
      { where: 'op:x', quote: '`status_filter` keeps one status' },
      { where: 'op:x', quote: '`search` keeps matches.' },
    ];
    expect(untracedClauses(filters, rules)).toEqual([]);
    expect(untracedClauses(filters, rules.slice(0, 1)).map((c) => c.text)).toEqual([
      '**Filters.** `status_filter` keeps one status and `search` keeps matches.',
    ]);
  });
});

describe('the mutants built for rules', () => {
  it('name the rules they break when they fail a shared check (one they give `mentions` for)', () => {
    expect(allMutants.filter((m) => m.mentions !== undefined && !m.rules?.length).map((m) => m.name)).toEqual([]);
  });

  it('name only rules a check they fail declares: each proves every rule it names', () => {
    const proven = new Set(matrix.flatMap((row) => row.proofs.map((m) => `${m} ${row.rule.id}`)));
    const named = allMutants.flatMap((m) =>
      (m.rules ?? []).map((entry) => ({
        m: m.name,
        entry,
        ids: rules.filter((r) => r.id === entry || (entry.startsWith('@') && r.tags.includes(entry))),
      })),
    );
    expect(named.filter(({ m, ids }) => !ids.some((r) => proven.has(`${m} ${r.id}`))).map(({ m, entry }) => `${m}: ${entry}`)).toEqual([]);
  });
});

describe('a rule is proven', () => {
  const rule = { id: 'r', kind: 'prose' as const, text: 'r', tags: [], byTag: false };
  const catalog = [{ id: 'c', rules: ['r'] }];
  it.each([
    ['by a broken server that fails its check', new Map([['c', ['m']]]), new Map<string, string>(), undefined],
    ['never by a unit test alone', new Map<string, string[]>(), new Map([['c', 'some.test.ts']]), 'no mutant'],
    [
      'never by a broken server built for another rule of its check',
      new Map([['c', ['m']]]),
      new Map<string, string>(),
      'no mutant',
      ['q'],
    ],
  ])('%s', (_, mutants, unitTests, gap, breaks?: string[]) => {
    const rulesOf = new Map(breaks ? [['m', breaks]] : []);
    expect(ruleMatrix([rule], catalog, { mutants, unitTests, rulesOf })[0]?.gap).toBe(gap);
  });
});
