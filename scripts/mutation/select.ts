// Which mutants a run judges and which of the suite's areas judge each: a seeded sample or all of them, a
// shard of those, and per mutant the areas whose unmutated run reached its code (the coverage the worker
// records), cheapest first, so that a kill is found by the first area that can see it.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRandom } from '@docproc-kit/reference/processing/settings.js';
import type { Mutant } from '@stryker-mutator/api/core';
import { mutantKey } from './score.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What a run needs of a generated mutant: its id in the instrumented core, where it is and what it does. */
export type GeneratedMutant = Pick<Mutant, 'id' | 'fileName' | 'mutatorName' | 'replacement' | 'location'>;

/**
 * `path:line:column Mutator replacement` (line and column 1-based), as the survivors and equivalent lists name
 * a mutant: the instrumenter counts both from 0.
 */
export function keyOf(m: GeneratedMutant): string {
  const path = m.fileName.startsWith('/') ? relative(root, m.fileName) : m.fileName;
  return mutantKey(path, { ...m, location: { start: { line: m.location.start.line + 1, column: m.location.start.column + 1 } } });
}

/**
 * About `size` mutants drawn with `seed` from all of them, those listed as equivalent left out (their verdict
 * is known): the same sources and seed give the same sample, and a larger size the same first picks.
 */
export function sampleMutants<M extends GeneratedMutant>(mutants: readonly M[], size: number, seed: number, equivalent: Set<string>): M[] {
  const pool = [...mutants].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  const random = createRandom(seed);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.filter((m) => !equivalent.has(keyOf(m))).slice(0, size);
}

/** `--shard I/N`: the mutants at positions I-1, I-1+N, ... of the list, so N runs together judge each once. */
export function shardOf<M>(mutants: readonly M[], shard: { index: number; count: number }): M[] {
  return mutants.filter((_, at) => at % shard.count === shard.index - 1);
}

/** `I/N` with 1 <= I <= N, or a usage error naming what was given. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || count < 1 || index > count) throw new Error(`--shard takes I/N with 1 <= I <= N, not ${text}`);
  return { index, count };
}

/** What the unmutated run reached: the mutants run while modules loaded, and per area those its run reached. */
export interface Coverage {
  static: ReadonlySet<string>;
  perArea: ReadonlyMap<string, ReadonlySet<string>>;
  /** How long each area's unmutated run took, in ms. */
  timesMs: ReadonlyMap<string, number>;
}

/** How a mutant is judged: not at all (no area reaches it), in the shared process, or in a fresh one (its code runs as modules load). */
export type Plan = { kind: 'uncovered' } | { kind: 'switched' | 'fresh-process'; areas: string[] };

/** The areas that reach mutant `id`, cheapest first; a mutant in code that runs as modules load gets every area, in a process of its own. */
export function planFor(id: string, coverage: Coverage): Plan {
  const byTime = [...coverage.timesMs.keys()].sort((a, b) => coverage.timesMs.get(a)! - coverage.timesMs.get(b)! || a.localeCompare(b));
  if (coverage.static.has(id)) return { kind: 'fresh-process', areas: byTime };
  const areas = byTime.filter((area) => coverage.perArea.get(area)?.has(id));
  return areas.length ? { kind: 'switched', areas } : { kind: 'uncovered' };
}
