import { describe, expect, it } from 'vitest';
import { instrumentSources } from '../../scripts/mutation/instrument.js';
import { readEquivalent } from '../../scripts/mutation/score.js';
import { keyOf } from '../../scripts/mutation/select.js';
import { staleRows, staleRowsReport } from '../../scripts/mutation/stale-rows.js';

describe('a row of the equivalent-mutants table', () => {
  it('is stale when no generated mutant has its key, and a run names each stale row on a line of its own', () => {
    const stale = staleRows(new Set(['a.ts:1:1 StringLiteral ""', 'a.ts:2:1 BlockStatement {}']), ['a.ts:1:1 StringLiteral ""']);
    expect(stale).toEqual(['a.ts:2:1 BlockStatement {}']);
    expect(staleRowsReport(stale)).toEqual(['equivalent-mutants.md: 1 row matches no mutant:', '  stale: a.ts:2:1 BlockStatement {}']);
    expect(staleRowsReport([])).toEqual([]);
  });

  // Instrumenting every mutated file takes seconds; a row left behind by a moved line would otherwise take its
  // mutant out of no score and tell no one.
  it('names a mutant the instrumenter generates from the current sources', { timeout: 120_000 }, async () => {
    const config = (await import(new URL('../../stryker.config.mjs', import.meta.url).href)).default as { mutate: string[] };
    const { mutants } = await instrumentSources(config.mutate);
    expect(staleRows(readEquivalent(), mutants.map(keyOf))).toEqual([]);
  });
});
