import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Check } from '../definitions/check.js';
import { DIRECT } from '../definitions/transport-settings.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import type { Step } from './sequence-context.js';
import { type SequenceSearch, searchSequences } from './sequence-search.js';

// The driver the model and oracle runs share, played on sequences that only sleep and log: what every run
// sends whatever the target's speed (the fixed part), and what the time budget bounds (the random part).

// Not registered (defineCheck): the catalog's own oracle.list stays the only one of that id.
const check: Check = { id: 'oracle.list', profile: 'full', area: 'oracle', description: 'test check', rules: [] };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Played {
  log: Step[];
  requests: number;
  input: number;
}

function search(overrides: Partial<SequenceSearch<number, Played>> & { onPlay?: (input: number) => Promise<void> }) {
  const played: number[] = [];
  const { onPlay, ...rest } = overrides;
  const settings: SequenceSearch<number, Played> = {
    area: 'oracle',
    differs: 'test',
    arbitrary: fc.integer({ min: 100, max: 200 }),
    seed: 1,
    runs: 5,
    timeMs: 10_000,
    maxShrinkMs: 1000,
    baseUrl: 'http://127.0.0.1:1',
    http: { transport: DIRECT },
    reproDir: tmpdir(),
    start: () => ({ log: [], requests: 1, input: -1 }),
    play: async (sequence, input) => {
      sequence.input = input;
      sequence.log.push({ title: `step ${input}`, calls: [], model: '' });
      played.push(input);
      await onPlay?.(input);
    },
    ...rest,
  };
  return { played, run: () => searchSequences(settings) };
}

describe('searchSequences', () => {
  it.each([
    { budget: 'no time and no random runs', timeMs: 0, runs: 0, random: 0 },
    { budget: 'no time', timeMs: 0, runs: 5, random: 0 },
    { budget: 'five random runs', timeMs: 10_000, runs: 5, random: 5 },
  ])('plays every fixed sequence with $budget, the random ones only within the budget', async ({ timeMs, runs, random }) => {
    const { played, run } = search({ fixed: [1, 2, 3], timeMs, runs, onPlay: () => sleep(5) });
    const result = await run();
    expect(played.slice(0, 3).sort()).toEqual([1, 2, 3]);
    expect(played.slice(3)).toHaveLength(random);
    expect(result).toMatchObject({ sequences: 3 + random, requests: 3 + random, fixed: 3 });
  });

  it('plays the fixed sequences at once, so their waits overlap instead of adding up', async () => {
    const { run } = search({ fixed: [1, 2, 3, 4], runs: 0, onPlay: () => sleep(300) });
    const { fixedMs } = await run();
    expect(fixedMs).toBeLessThan(4 * 300);
  });

  it('reports a difference of a fixed sequence as a failure with its reproducer, and plays no random sequence after it', async () => {
    const { played, run } = search({
      fixed: [1, 2],
      onPlay: async (input) => {
        if (input === 2) throw new ConformanceFailure(check, { received: 'a', expected: 'b' });
      },
    });
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConformanceFailure);
    expect((error as ConformanceFailure).record.check).toBe('oracle.list');
    expect((error as ConformanceFailure).record.curl).toContain('#!/bin/sh');
    expect(played.filter((p) => p >= 100)).toEqual([]);
  });

  it('throws at once what is no difference (a target that stopped answering), after the other fixed sequences end', async () => {
    const { played, run } = search({
      fixed: [1, 2],
      onPlay: async (input) => {
        if (input === 1) throw new Error('socket hang up');
        await sleep(20);
      },
    });
    await expect(run()).rejects.toThrow('socket hang up');
    expect(played).toEqual([1, 2]);
  });
});
