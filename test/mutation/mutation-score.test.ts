import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ListedMutant, sampleRanges } from '../../scripts/mutation/sample.js';
import { readEquivalent, type ScoredMutant, score } from '../../scripts/mutation/score.js';

const at = (line: number, column: number, endLine: number, endColumn: number): ListedMutant['location'] => ({
  start: { line, column },
  end: { line: endLine, column: endColumn },
});
const mutant = (
  line: number,
  location = at(line, 5, line, 9),
  fileName = fileURLToPath(new URL('../../packages/reference/src/x.ts', import.meta.url)),
): ListedMutant => ({
  fileName,
  mutatorName: 'ConditionalExpression',
  replacement: 'true',
  location,
});

describe('the mutation score', () => {
  const mutants: ScoredMutant[] = [
    { key: 'a', status: 'Killed' },
    { key: 'b', status: 'Timeout' },
    { key: 'c', status: 'Survived' },
    { key: 'd', status: 'NoCoverage' },
    { key: 'e', status: 'Survived' },
    { key: 'f', status: 'CompileError' },
    { key: 'g', status: 'Killed' },
  ];

  it('counts killed and timed-out mutants as killed, and takes listed equivalent survivors out', () => {
    const result = score(mutants, new Set(['e', 'g']));
    expect(result).toMatchObject({ total: 7, notJudged: 1, equivalent: 1, counted: 5, killed: 3, survivors: ['c', 'd'] });
    expect(result.line).toBe('mutation score: 60% of 5 non-equivalent mutants killed');
  });

  it('reads the committed equivalent mutants, keys holding backticks included', () => {
    expect(readEquivalent()).toContain('packages/reference/src/validation.ts:58:81 StringLiteral ``');
  });
});

describe('the sample', () => {
  const listed = Array.from({ length: 200 }, (_, i) => mutant(i + 1));

  it('is the same for the same seed and another for another seed', () => {
    expect(sampleRanges(listed, 10, 29)).toEqual(sampleRanges(listed, 10, 29));
    expect(sampleRanges(listed, 10, 29)).not.toEqual(sampleRanges(listed, 10, 30));
  });

  it("names each pick by Stryker's range: lines 1-based, columns 0-based", () => {
    const [range] = sampleRanges([mutant(3, at(3, 5, 4, 9))], 1, 29);
    expect(range).toBe('packages/reference/src/x.ts:3:4-4:8');
  });

  it('counts the mutants nested in a pick towards its size', () => {
    const outer = mutant(1, at(1, 1, 10, 2));
    const inner = Array.from({ length: 5 }, (_, i) => mutant(i + 2));
    const ranges = sampleRanges([outer, ...inner], 3, 29);
    expect(ranges.length).toBeLessThanOrEqual(3);
    expect(sampleRanges([outer, ...inner], 6, 29).length).toBeLessThan(6);
  });
});
