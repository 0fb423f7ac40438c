import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Coverage, type GeneratedMutant, keyOf, parseShard, planFor, sampleMutants, shardOf } from '../../scripts/mutation/select.js';

const file = fileURLToPath(new URL('../../packages/reference/src/x.ts', import.meta.url));
const mutant = (id: number): GeneratedMutant => ({
  id: String(id),
  fileName: file,
  mutatorName: 'ConditionalExpression',
  replacement: 'true',
  location: { start: { line: id, column: 4 }, end: { line: id, column: 9 } },
});
const listed = Array.from({ length: 200 }, (_, i) => mutant(i));
const ids = (mutants: GeneratedMutant[]) => mutants.map((m) => m.id);

describe('a mutant', () => {
  it('is named as the survivors and equivalent lists name it: repository path, 1-based line and column', () => {
    expect(keyOf(mutant(57))).toBe('packages/reference/src/x.ts:58:5 ConditionalExpression true');
  });
});

describe('the sample', () => {
  it('is the same for the same seed, another for another seed, in any order of the listing', () => {
    const sample = ids(sampleMutants(listed, 10, 29, new Set()));
    expect(sample).toHaveLength(10);
    expect(ids(sampleMutants([...listed].reverse(), 10, 29, new Set()))).toEqual(sample);
    expect(ids(sampleMutants(listed, 10, 30, new Set()))).not.toEqual(sample);
  });

  it('keeps its first picks when it grows', () => {
    expect(ids(sampleMutants(listed, 20, 29, new Set())).slice(0, 10)).toEqual(ids(sampleMutants(listed, 10, 29, new Set())));
  });

  it('leaves out the mutants listed as equivalent and still holds as many', () => {
    const first = sampleMutants(listed, 10, 29, new Set());
    const equivalent = new Set(first.slice(0, 3).map(keyOf));
    const sample = sampleMutants(listed, 10, 29, equivalent);
    expect(sample).toHaveLength(10);
    expect(sample.filter((m) => equivalent.has(keyOf(m)))).toEqual([]);
  });
});

describe('the shards', () => {
  it('judge every chosen mutant once between them', () => {
    const shards = [1, 2, 3].map((index) => ids(shardOf(listed, { index, count: 3 })));
    expect(shards.flat().sort()).toEqual(ids(listed).sort());
    expect(new Set(shards.flat()).size).toBe(listed.length);
  });

  it.each(['2/3', '1/1'])('are named I/N: %s', (text) => {
    expect(() => parseShard(text)).not.toThrow();
  });

  it.each(['0/3', '4/3', '3', 'a/b', '1/0'])('refuse %s', (text) => {
    expect(() => parseShard(text)).toThrow(/--shard takes I\/N/);
  });
});

describe('the areas that judge a mutant', () => {
  const coverage: Coverage = {
    static: new Set(['9']),
    perArea: new Map([
      ['model', new Set(['1', '2'])],
      ['list', new Set(['1'])],
      ['auth', new Set(['1', '2'])],
    ]),
    timesMs: new Map([
      ['model', 16_000],
      ['list', 3_000],
      ['auth', 4_000],
    ]),
  };

  it.each([
    ['1', { kind: 'switched', areas: ['list', 'auth', 'model'] }],
    ['2', { kind: 'switched', areas: ['auth', 'model'] }],
    ['3', { kind: 'uncovered' }],
    ['9', { kind: 'fresh-process', areas: ['list', 'auth', 'model'] }],
  ])(
    'are, for mutant %s, those whose unmutated run reached it, cheapest first (every area, in a process of its own, when it ran as modules loaded)',
    (id, plan) => {
      expect(planFor(id, coverage)).toEqual(plan);
    },
  );
});
