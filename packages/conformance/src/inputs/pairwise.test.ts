import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { describe, expect, it } from 'vitest';
import { pairsSequence } from '../oracle/pairs-sequence.js';
import { classifyPairs, coveringRows, pairPartitions } from './pairwise.js';
import { PAIRS_INPUT, partitionCatalog } from './partition-catalog.js';
import { scalarInput } from './partitions.js';

const contract = await loadContract();
const catalog = partitionCatalog(contract);
const list = catalog.operations.find((o) => o.operation === 'listDocuments')!;

/** Every pair of levels of two factors that `rows` leave out. */
function uncovered(levels: number[], rows: number[][]): string[] {
  const out: string[] = [];
  for (let i = 0; i < levels.length; i++)
    for (let j = i + 1; j < levels.length; j++)
      for (let a = 0; a < levels[i]!; a++)
        for (let b = 0; b < levels[j]!; b++) if (!rows.some((r) => r[i] === a && r[j] === b)) out.push(`${i}:${a} × ${j}:${b}`);
  return out;
}

describe('pairs of partitions of two list parameters', () => {
  it("are every pair of the partitions the contract accepts of two of the list's query parameters (108 for the bundled one)", () => {
    const pairs = list.inputs.find((i) => i.input === PAIRS_INPUT)!.partitions.map((p) => p.id);
    expect(pairs).toHaveLength(108);
    expect(pairs).toContain('status_filter value: failed × search length: at maximum in multi-byte characters');
    expect(pairs).toContain('page value: at maximum × limit presence: absent');
    // A refused partition pairs nothing: its 400 names it whatever comes with it.
    expect(pairs.some((p) => /below minimum|not a member|spelling|repeated|NUL/.test(p))).toBe(false);
  });

  it.each([[[2, 2, 2]], [[4, 4, 4, 5]], [[3, 1, 6]], [[7, 2]]])('are all held by the covering rows of factors %j', (levels) => {
    const rows = coveringRows(levels);
    expect(uncovered(levels, rows)).toEqual([]);
    expect(rows.length).toBeLessThanOrEqual(levels.reduce((a, b) => a + b, 0) * 3);
  });

  it("are each sent by the oracle's covering sequence of lists, as the catalogue classifies its requests", () => {
    const lists = pairsSequence(contract).filter((op) => op.kind === 'list');
    expect(lists.length).toBeLessThanOrEqual(25);
    const params = list.inputs.filter((i) => i.input.startsWith('query ') && i.input !== PAIRS_INPUT && !i.input.includes('('));
    const reached = new Set<string>();
    for (const op of lists) {
      const url = new URL('http://h/api/v1/documents/get_documents');
      for (const { param, value } of op.params) {
        const input = catalog.scalar('listDocuments', params[param]!.input)!;
        const valued = input.partitions.filter((p) => p.value !== undefined);
        if ('partition' in value) url.searchParams.set(input.name, valued[value.partition]!.value!);
      }
      const sent = catalog.classify('listDocuments', { method: 'GET', url: url.href, key: 'primary', headers: {} });
      for (const name of sent) if (name.startsWith(PAIRS_INPUT)) reached.add(name);
    }
    expect(reached.size).toBe(108);
  });

  it('classifies a request with a refused value as no pair, and one without a parameter as its absence', () => {
    const a = scalarInput('query', 'limit', { type: 'integer', minimum: 1, maximum: 100 }, 't', { optional: true, repeatable: true });
    const b = scalarInput('query', 'status', { type: 'string', enum: ['x', 'y'] }, 't', { optional: true, repeatable: true });
    expect(pairPartitions([a, b], 'tests')).toHaveLength(4 * 3);
    expect(classifyPairs([a, b], [a.classify(['1']), b.classify([])])).toEqual(['limit value: at minimum × status presence: absent']);
    expect(classifyPairs([a, b], [a.classify(['0']), b.classify(['x'])])).toEqual([]);
    expect(classifyPairs([a, b], [a.classify(['1', '2']), b.classify(['x'])])).toEqual([]);
  });
});
