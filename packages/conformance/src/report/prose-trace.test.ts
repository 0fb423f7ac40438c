import { loadBundledContract } from '@docproc-kit/contract/load-contract.js';
import { describe, expect, it } from 'vitest';
import { checksFedBy } from './prose-trace.js';

const contract = await loadBundledContract();
const ids = (trace: ReturnType<typeof checksFedBy>) => trace.checks.map((c) => c.id);

describe('the checks a sentence of the contract feeds', () => {
  it('are those declaring the prose rules that quote it at its place', () => {
    const trace = checksFedBy(contract, 'op:listDocuments', ['Unknown parameters are ignored (so cache-busters do no harm).']);
    expect(trace.match).toBe('quoted');
    expect(trace.rules).toEqual(['list.unknown-params-ignored']);
    expect(ids(trace)).toContain('list.unknown-params-ignored');
  });

  it('follow a reworded sentence to the rule whose quote it was', () => {
    const trace = checksFedBy(contract, 'op:listDocuments', ['Unknown parameters are always ignored (so cache-busters never do harm).']);
    expect(trace).toMatchObject({ match: 'similar', rules: ['list.unknown-params-ignored'] });
    expect(ids(trace)).toContain('list.unknown-params-ignored');
  });

  it('of a changed sentence are those of both its wordings', () => {
    const trace = checksFedBy(contract, 'op:listDocuments', [
      'Unknown parameters are ignored (so cache-busters do no harm).',
      'Lists carry `DocumentSummary` records (no `content`).',
    ]);
    expect(trace.rules.sort()).toEqual(['list.no-content', 'list.unknown-params-ignored']);
  });

  it.each([
    ['a sentence no rule is near', 'op:listDocuments', ['The moon is made of cheese.']],
    ['a quoted sentence at another place', 'op:getDocument', ['Unknown parameters are ignored (so cache-busters do no harm).']],
    ['an empty wording', 'info', ['']],
  ])('are none for %s', (_, where, sentences) => {
    expect(checksFedBy(contract, where, sentences)).toEqual({ match: 'none', rules: [], checks: [] });
  });
});
