import { describe, expect, it } from 'vitest';
import { cycles, folderEdges } from './import-graph.js';

function graph(pairs: Array<[string, string]>): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [a, b] of pairs) edges.set(a, (edges.get(a) ?? new Set()).add(b));
  return edges;
}

describe('the import graph the layering test reads', () => {
  it.each([
    {
      name: 'a chain has no cycle',
      edges: [
        ['a', 'b'],
        ['b', 'c'],
      ] as Array<[string, string]>,
      found: [],
    },
    {
      name: 'two folders importing each other are a cycle',
      edges: [
        ['a', 'b'],
        ['b', 'a'],
      ] as Array<[string, string]>,
      found: [['a', 'b', 'a']],
    },
    {
      name: 'a longer loop is found whole',
      edges: [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
      ] as Array<[string, string]>,
      found: [['a', 'b', 'c', 'a']],
    },
  ])('$name', ({ edges, found }) => {
    expect(cycles(graph(edges))).toEqual(found);
  });

  it('an import between two folders is an edge between the folders just below the one they share', () => {
    const edges = folderEdges([
      { from: 'src/checks/upload.ts', specifier: '../transport/api.js', to: 'src/transport/api.ts' },
      { from: 'src/checks/deep/x.ts', specifier: '../../run/config.js', to: 'src/run/config.ts' },
      { from: 'src/index.ts', specifier: './run/run.js', to: 'src/run/run.ts' },
    ]);
    expect(edges.get('src')).toEqual(new Map([['checks', new Set(['transport', 'run'])]]));
  });
});
