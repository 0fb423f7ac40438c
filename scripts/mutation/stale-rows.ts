// The rows of the equivalent-mutants table that name no mutant the instrumenter generates: a row keyed at a line
// the sources have since moved away from takes nothing out of the score and says nothing, so every run names them.
import { EQUIVALENT_FILE } from './score.js';

/** The listed keys that are not among `keys` (every generated mutant's), in the table's order. */
export function staleRows(equivalent: ReadonlySet<string>, keys: Iterable<string>): string[] {
  const generated = new Set(keys);
  return [...equivalent].filter((key) => !generated.has(key));
}

/**
 * What a run prints when some rows are stale (a summary line, then each row's key on a line of its own, since a
 * key may hold any punctuation), or nothing when every row names a mutant.
 */
export function staleRowsReport(stale: readonly string[]): string[] {
  if (stale.length === 0) return [];
  const file = EQUIVALENT_FILE.split('/').pop();
  return [
    `${file}: ${stale.length} ${stale.length === 1 ? 'row matches' : 'rows match'} no mutant:`,
    ...stale.map((key) => `  stale: ${key}`),
  ];
}
