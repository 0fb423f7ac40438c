import { describe, expect, it } from 'vitest';
import { describeExpectedPage, type ExpectedPage, judgeModelList, windowOf } from './model-lists.js';

// The tenant's documents D3, D2, D1 (newest first): D3 surely matches, D2 matches only if its run has ended so, D1 does not.
const expected: ExpectedPage = {
  page: 1,
  limit: 2,
  entries: [
    { id: 3, alias: 'D3', membership: 'in' },
    { id: 2, alias: 'D2', membership: 'maybe' },
    { id: 1, alias: 'D1', membership: 'out' },
  ],
};
const page = (ids: number[], total: number) =>
  ({ kind: 'page', expected, received: { ids, page: 1, limit: 2, total, totalPages: Math.ceil(total / 2) } }) as const;

describe('the model run’s list check', () => {
  it('says what a page should hold, marking the documents whose run may have ended', () => {
    expect(describeExpectedPage(expected)).toBe(
      'page 1 (limit 2) of the matching documents ["D3","D2?"] (? = matches only if its run has ended as the filter or search needs, which it may have by now): documents 1-2, total 1 to 2',
    );
  });

  it('takes a page the uncertain documents can explain, and learns from it what they are', () => {
    expect(judgeModelList(page([3], 1))).toBeUndefined();
    expect(windowOf(page([3], 1))).toEqual({
      ok: true,
      forced: new Map([
        [3, true],
        [2, false],
      ]),
    });
    // A listed document matched when it was listed, whatever the model was unsure of.
    expect(windowOf(page([3, 2], 2))).toMatchObject({ ok: true });
  });

  it('fails a page no choice of them explains, naming its documents by alias', () => {
    const finding = judgeModelList(page([3], 0));
    expect(finding?.received).toBe('page 1: ["D3"], total 0, total_pages 0');
    expect(finding?.note).toContain('total');
    // D1 listed is taken to match; then D3, which surely does, is missing before it.
    expect(judgeModelList(page([1], 1))?.note).toMatch(/^before this page/);
  });

  it('fails a document the sequence never created, one listed twice, one that does not match, and a status other than 200', () => {
    const listed = { kind: 'listed', id: 9, filename: 'x.pdf', alias: 'D9', times: 1, expected } as const;
    expect(judgeModelList(listed)).toBeUndefined();
    expect(judgeModelList({ ...listed, alias: undefined })?.expected).toMatch(/^only documents this sequence created \(page 1/);
    expect(judgeModelList({ ...listed, times: 2 })?.received).toBe('document 9 listed twice on one page');
    const match = { kind: 'matches', alias: 'D1', status: 'failed', filename: 'a.pdf', matches: false, query: 'search "tok"' } as const;
    expect(judgeModelList(match)?.expected).toBe('only documents matching search "tok"');
    expect(judgeModelList({ kind: 'status', status: 500, code: 'internal' })?.received).toBe('500 "internal"');
  });
});
