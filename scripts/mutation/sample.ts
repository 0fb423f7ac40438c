// Draws the sample of `npm run mutation` from the complete list of mutants, reproducibly.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRandom } from '@docproc-kit/reference/processing/settings.js';
import type { MutantResult } from '@stryker-mutator/api/core';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What the sample needs of a mutant: where it is and what it does. */
export type ListedMutant = Pick<MutantResult, 'fileName' | 'mutatorName' | 'replacement' | 'location'>;

type Location = ListedMutant['location'];
const inside = (outer: Location, inner: Location) =>
  (outer.start.line < inner.start.line || (outer.start.line === inner.start.line && outer.start.column <= inner.start.column)) &&
  (outer.end.line > inner.end.line || (outer.end.line === inner.end.line && outer.end.column >= inner.end.column));

/**
 * Stryker's `mutate` ranges of a sample of about `size` mutants: each picked mutant's own range (line 1-based,
 * column 0-based in a range, 1-based in a report), which also holds the mutants nested in it.
 */
export function sampleRanges(mutants: ListedMutant[], size: number, seed: number): string[] {
  const key = (m: ListedMutant) =>
    `${m.fileName}\t${String(m.location.start.line).padStart(6)}\t${String(m.location.start.column).padStart(6)}\t${m.mutatorName}\t${m.replacement}`;
  const pool = [...mutants].sort((a, b) => key(a).localeCompare(key(b)));
  const random = createRandom(seed);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const chosen = new Set<ListedMutant>();
  const ranges: string[] = [];
  for (const m of pool) {
    if (chosen.size >= size) break;
    if (chosen.has(m)) continue;
    for (const n of mutants) if (n.fileName === m.fileName && inside(m.location, n.location)) chosen.add(n);
    const { start, end } = m.location;
    ranges.push(`${relative(root, m.fileName)}:${start.line}:${start.column - 1}-${end.line}:${end.column - 1}`);
  }
  return ranges;
}
