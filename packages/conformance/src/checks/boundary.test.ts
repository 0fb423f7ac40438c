import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../definitions/exchange.js';
import { judgeBoundary } from './boundary.js';
import { type BoundaryRule, boundaryRules } from './boundary-cases.js';

// The verdict on one boundary case, on hand-made answers: a spelling the contract leaves open passes
// read either way, and fails read as another number.
const rules = boundaryRules(await loadContract(), 'conformance-run1-boundary');
const rule = (id: string) => rules.find((r) => r.checkId === id) as BoundaryRule;
const caseOf = (r: BoundaryRule, value: string) => r.cases.find((c) => c.value === value)!;

function answer(status: number, json?: unknown): Exchange {
  return { status, json, headers: new Headers(), mediaType: 'application/json', text: JSON.stringify(json ?? '') } as Exchange;
}
const listed = (page: number, limit = 20) => answer(200, { documents: [], pagination: { page, limit, total: 0, total_pages: 0 } });

describe('a boundary case', () => {
  const page = rule('boundary.page-integer');
  const id = rule('boundary.document-id-integer');
  it.each([
    ['page=010 refused', page, '010', answer(400), true],
    ['page=010 read as 10', page, '010', listed(10), true],
    ['page=010 read as 8 (octal)', page, '010', listed(8), false],
    ['page=+10 read as 10', page, '+10', listed(10), true],
    ['page=1e1 read as 10', page, '1e1', listed(10), false],
    ['page=" 10" read as 10', page, ' 10', listed(10), false],
    ['page=10.0 refused', page, '10.0', answer(400), true],
    ['a path id with a leading zero answered 404 (as the plain id is)', id, `0${Number.MAX_SAFE_INTEGER}`, answer(404), true],
    ['a path id in hex answered 404', id, `0x${Number.MAX_SAFE_INTEGER.toString(16)}`, answer(404), false],
  ])('%s: passes %s', (_, r, value, exchange, passes) => {
    const c = caseOf(r, value);
    expect(c, `no case ${value}`).toBeDefined();
    expect(judgeBoundary({ rule: r, case: c, exchange }) === undefined).toBe(passes);
  });

  const nul = rule('boundary.search-nul');
  const problem = (code: string) => answer(400, { type: 'about:blank', status: 400, code });
  it.each([
    ['refused as invalid_request', problem('invalid_request'), true],
    ['refused with another code', problem('bad_search'), false],
    ['searched without the NUL', listed(1), false],
  ])('a search holding %%00 %s: passes %s', (_, exchange, passes) => {
    expect(nul.cases.every((c) => judgeBoundary({ rule: nul, case: c, exchange }) === undefined)).toBe(passes);
  });

  it('names the open spellings as open and every other lenient spelling as a 400', () => {
    expect(page.cases.filter((c) => c.expect === 'either').map((c) => c.value)).toEqual(['+10', '010']);
    expect(page.cases.filter((c) => c.value !== '10' && c.expect === 'accept')).toEqual([]);
  });
});
