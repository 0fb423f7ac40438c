import { describe, expect, it } from 'vitest';
import { readEquivalent, type ScoredMutant, score } from '../../scripts/mutation/score.js';

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
    expect(readEquivalent()).toContain('packages/reference/src/validation.ts:52:81 StringLiteral ``');
  });
});
