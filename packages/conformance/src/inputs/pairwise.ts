import { IN_RANGE, type Partition, type ScalarInput } from './partitions.js';

// Pairs of partitions of two inputs of one request where the inputs interact: a list's query parameters
// (`status_filter` × `search` × `page` × `limit`), each pair of partitions the contract accepts. A refused
// value is refused whatever comes with it (its `400` names it), so only accepted partitions pair. The
// oracle's second fixed sequence sends a covering array of them (every pair in about two dozen lists).

/** The rule that says the list's parameters combine (rules/prose.ts). */
export const PAIRS_SOURCE = 'list.status-filter';

const ACCEPTED_LENGTHS = new Set([
  'length: at minimum',
  'length: inside the range',
  'length: at maximum',
  'length: at maximum in multi-byte characters',
]);

// An enum's members are `value: <member>`; the other `value:` partitions are named for what they are.
const REFUSED_VALUES = new Set([
  'value: another case of a member',
  'value: not a member',
  'value: empty',
  'value: below minimum',
  'value: above maximum',
]);
const IN_RANGE_IDS = new Set<string>(Object.values(IN_RANGE));

/** Whether the contract accepts every value of `partition`: absent, a length or a number in range, an enum member. */
export function accepted(partition: Partition): boolean {
  const { id } = partition;
  if (id === 'presence: absent' || ACCEPTED_LENGTHS.has(id) || IN_RANGE_IDS.has(id)) return true;
  return id.startsWith('value: ') && !REFUSED_VALUES.has(id);
}

const REFUSED_OTHERS = new Set(['length: below minimum', 'length: above maximum', 'alphabet: outside the pattern', 'alphabet: NUL']);

/**
 * Whether the contract refuses every value of `partition` (a `400` naming its parameter): out of range or
 * length, not a member, outside the pattern, NUL, a spelling not read either way.
 */
export function refused(partition: Partition): boolean {
  const { id } = partition;
  if (REFUSED_VALUES.has(id) || REFUSED_OTHERS.has(id)) return true;
  return id.startsWith('spelling: ') && partition.sameAs === undefined;
}

/** The name of the pair of partition `a` of input `x` and `b` of `y`. */
export const pairName = (x: ScalarInput, a: string, y: ScalarInput, b: string) => `${x.name} ${a} × ${y.name} ${b}`;

/** Each input's accepted partition ids, in catalogue order. */
export function acceptedLevels(inputs: readonly ScalarInput[]): string[][] {
  return inputs.map((input) => input.partitions.filter(accepted).map((p) => p.id));
}

/** Every pair of accepted partitions of two of `inputs`, as partitions of the pairs' input. */
export function pairPartitions(inputs: readonly ScalarInput[], drawnBy: string): Partition[] {
  const levels = acceptedLevels(inputs);
  const out: Partition[] = [];
  for (let i = 0; i < inputs.length; i++)
    for (let j = i + 1; j < inputs.length; j++)
      for (const a of levels[i]!)
        for (const b of levels[j]!) out.push({ id: pairName(inputs[i]!, a, inputs[j]!, b), source: PAIRS_SOURCE, drawnBy });
  return out;
}

// Partitions a value can fall in beside an accepted length, each of which makes the request a `400`.
const REFUSING = new Set(['presence: repeated', 'alphabet: NUL', 'alphabet: outside the pattern']);

/**
 * The pairs one request falls in, from the partitions each input's value fell in (`found[i]` for `inputs[i]`):
 * none when a value is refused (a `400` whatever else the request holds).
 */
export function classifyPairs(inputs: readonly ScalarInput[], found: ReadonlyArray<readonly string[]>): string[] {
  const levels = acceptedLevels(inputs).map((ids) => new Set(ids));
  const kept = found.map((ids, i) => ids.filter((id) => levels[i]!.has(id)));
  if (found.some((ids) => ids.some((id) => REFUSING.has(id))) || kept.some((ids) => ids.length === 0)) return [];
  const out: string[] = [];
  for (let i = 0; i < inputs.length; i++)
    for (let j = i + 1; j < inputs.length; j++)
      for (const a of kept[i]!) for (const b of kept[j]!) out.push(pairName(inputs[i]!, a, inputs[j]!, b));
  return out;
}

/**
 * Rows (one level per factor) that together hold every pair of levels of two factors: greedy, each row the
 * one covering most pairs still missing, from a fixed start, so the same factors give the same rows.
 * @example coveringRows([2, 2, 2]) // four rows, every pair of the three two-level factors
 */
export function coveringRows(levels: readonly number[]): number[][] {
  const missing = new Set<string>();
  const key = (i: number, a: number, j: number, b: number) => `${i}:${a}|${j}:${b}`;
  for (let i = 0; i < levels.length; i++)
    for (let j = i + 1; j < levels.length; j++)
      for (let a = 0; a < levels[i]!; a++) for (let b = 0; b < levels[j]!; b++) missing.add(key(i, a, j, b));
  const rows: number[][] = [];
  while (missing.size > 0) {
    // Start from a missing pair, then fill each other factor with the level covering most missing pairs.
    const [first] = missing;
    const [[i, a], [j, b]] = first!.split('|').map((s) => s.split(':').map(Number)) as [[number, number], [number, number]];
    const row: Array<number | undefined> = levels.map(() => undefined);
    row[i] = a;
    row[j] = b;
    for (let f = 0; f < levels.length; f++) {
      if (row[f] !== undefined) continue;
      let best = 0;
      let bestGain = -1;
      for (let v = 0; v < levels[f]!; v++) {
        let gain = 0;
        for (let g = 0; g < levels.length; g++) {
          const w = row[g];
          if (g === f || w === undefined) continue;
          if (missing.has(g < f ? key(g, w, f, v) : key(f, v, g, w))) gain++;
        }
        if (gain > bestGain) [best, bestGain] = [v, gain];
      }
      row[f] = best;
    }
    const full = row as number[];
    for (let x = 0; x < levels.length; x++) for (let y = x + 1; y < levels.length; y++) missing.delete(key(x, full[x]!, y, full[y]!));
    rows.push(full);
  }
  return rows;
}
