import { describe, expect, it } from 'vitest';
import { type Candidate, judgeWindow, type Membership } from './list-window.js';

/** Candidates 5, 4, 3, 2, 1 (newest first) with these memberships. */
const docs = (...memberships: Membership[]): Candidate[] =>
  memberships.map((membership, i) => ({ id: memberships.length - i, membership }));
const page = (ids: number[], total: number, p = 1, limit = 2) => ({ ids, page: p, limit, total, totalPages: Math.ceil(total / limit) });

describe('judgeWindow', () => {
  it.each([
    { case: 'sure matches, first page', candidates: docs('in', 'in', 'in'), answer: page([3, 2], 3) },
    { case: 'sure matches, last short page', candidates: docs('in', 'in', 'in'), answer: page([1], 3, 2) },
    { case: 'a page past the end, with the true total', candidates: docs('in', 'in', 'in'), answer: page([], 3, 3) },
    { case: 'nothing matches', candidates: docs('out', 'out'), answer: page([], 0) },
    { case: 'a document whose run ended since is in', candidates: docs('maybe', 'in'), answer: page([2, 1], 2) },
    { case: 'a document whose run has not ended is out', candidates: docs('maybe', 'in'), answer: page([1], 1) },
    { case: 'an uncertain one on an earlier page', candidates: docs('maybe', 'in', 'in'), answer: page([1], 3, 2) },
  ])('accepts $case', ({ candidates, answer }) => {
    expect(judgeWindow(candidates, answer, answer.page, answer.limit)).toMatchObject({ ok: true });
  });

  it.each([
    { case: 'a sure match left out', candidates: docs('in', 'in', 'in'), answer: page([3], 1), problem: /total 1/ },
    { case: 'a total counting one too many', candidates: docs('in', 'in'), answer: page([2, 1], 3), problem: /after this page/ },
    { case: 'a document that cannot match', candidates: docs('in', 'out'), answer: page([2, 1], 2), problem: /listed but does not match/ },
    { case: 'the wrong order', candidates: docs('in', 'in'), answer: page([1, 2], 2), problem: /against the order/ },
    {
      case: 'a sure match skipped inside the page',
      candidates: docs('in', 'in', 'in'),
      answer: page([3, 1], 3),
      problem: /between documents 3 and 1/,
    },
    {
      case: 'a page past the end without totals',
      candidates: docs('in', 'in', 'in'),
      answer: page([], 0, 3),
      problem: /total: 0 matching/,
    },
    { case: 'an empty page before the end', candidates: docs('in', 'in', 'in'), answer: page([], 3, 2), problem: /empty page 2/ },
    {
      case: 'total_pages not ceil(total/limit)',
      candidates: docs('in', 'in', 'in'),
      answer: { ...page([3, 2], 3), totalPages: 1 },
      problem: /total_pages 1/,
    },
    { case: 'another page than asked', candidates: docs('in'), answer: page([1], 1, 1), asked: 2, problem: /page 1/ },
  ])('refuses $case', ({ candidates, answer, problem, asked }) => {
    const verdict = judgeWindow(candidates, answer, asked ?? answer.page, answer.limit);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.problem).toMatch(problem);
  });

  it('learns which uncertain documents the answer decides', () => {
    // 5 maybe, 4 in, 3 maybe, 2 in, 1 maybe; page 1 of 2 shows 4 and 2 with total 2: every maybe is out.
    const verdict = judgeWindow(docs('maybe', 'in', 'maybe', 'in', 'maybe'), page([4, 2], 2), 1, 2);
    expect(verdict.ok && Object.fromEntries(verdict.forced)).toEqual({ 5: false, 4: true, 3: false, 2: true, 1: false });
  });

  it('learns nothing it cannot tell', () => {
    // Page 2 of size 1 holds 1 of total 2: one of 3 and 2 matched, the model cannot tell which.
    const verdict = judgeWindow(docs('maybe', 'maybe', 'in'), page([1], 2, 2, 1), 2, 1);
    expect(verdict.ok && [...verdict.forced.keys()]).toEqual([1]);
  });
});
