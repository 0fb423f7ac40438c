/** Whether a document matches a list query: surely, surely not, or depending on a run that may have ended. */
export type Membership = 'in' | 'out' | 'maybe';

/** One document the query could match, in the list's order. */
export interface Candidate {
  id: number;
  membership: Membership;
}

/** A list page as the target answered it. */
export interface AnsweredPage {
  ids: number[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/** What the window judge concluded: a problem, or which uncertain documents the answer proves in or out. */
export type WindowVerdict = { ok: true; forced: Map<number, boolean> } | { ok: false; problem: string };

/**
 * Judges one page of a list whose matching set the model knows up to documents that may have changed
 * status since it last saw them (`maybe`). The page must be a window of the ordered matching list for
 * SOME choice of the uncertain documents: listed documents in list order, no sure match skipped inside
 * the window, exactly (page-1)*limit matches before it, and totals that agree with what follows.
 * Returns which uncertain documents the answer decides, so the model learns from it.
 * @example judgeWindow([{ id: 2, membership: 'in' }, { id: 1, membership: 'maybe' }], { ids: [2], page: 1, limit: 5, total: 1, totalPages: 1 }, 1, 5)
 */
export function judgeWindow(candidates: Candidate[], answer: AnsweredPage, page: number, limit: number): WindowVerdict {
  if (answer.page !== page || answer.limit !== limit) {
    return {
      ok: false,
      problem: `pagination says page ${answer.page}, limit ${answer.limit}; the request asked for page ${page}, limit ${limit}`,
    };
  }
  const position = new Map(candidates.map((c, i) => [c.id, i]));
  const positions = answer.ids.map((id) => position.get(id));
  if (positions.some((p) => p === undefined)) return { ok: false, problem: 'a listed document does not match the query' };
  for (const id of answer.ids) {
    if (candidates[position.get(id)!]!.membership === 'out') return { ok: false, problem: `document ${id} is listed but does not match` };
  }
  const at = positions as number[];
  for (let i = 1; i < at.length; i++) {
    if (at[i]! <= at[i - 1]!)
      return { ok: false, problem: `document ${answer.ids[i]} is listed after ${answer.ids[i - 1]}, against the order` };
  }
  if (answer.ids.length > limit) return { ok: false, problem: `${answer.ids.length} documents on a page of ${limit}` };
  const forced = new Map<number, boolean>();
  const count = (from: number, to: number) => {
    let sure = 0;
    let maybe = 0;
    for (let i = from; i < to; i++) {
      const m = candidates[i]!.membership;
      if (m === 'in') sure++;
      else if (m === 'maybe') maybe++;
    }
    return { sure, maybe };
  };
  /** `n` matches among candidates [from, to): possible, and what it forces. */
  const region = (from: number, to: number, n: number, what: string): string | undefined => {
    const { sure, maybe } = count(from, to);
    if (n < sure || n > sure + maybe)
      return `${what}: ${n} matching document(s), but ${sure === sure + maybe ? sure : `${sure} to ${sure + maybe}`} match`;
    if (n === sure || n === sure + maybe) {
      for (let i = from; i < to; i++) if (candidates[i]!.membership === 'maybe') forced.set(candidates[i]!.id, n !== sure);
    }
    return undefined;
  };
  const before = (page - 1) * limit;
  const expectedPages = Math.ceil(answer.total / limit);
  if (answer.totalPages !== expectedPages) {
    return {
      ok: false,
      problem: `total_pages ${answer.totalPages} is not ceil(total ${answer.total} / limit ${limit}) = ${expectedPages}`,
    };
  }
  if (at.length === 0) {
    if (answer.total > before) return { ok: false, problem: `an empty page ${page} though total ${answer.total} reaches past ${before}` };
    const problem = region(0, candidates.length, answer.total, 'total');
    return problem ? { ok: false, problem } : { ok: true, forced };
  }
  for (const id of answer.ids) forced.set(id, true);
  const first = at[0]!;
  const last = at[at.length - 1]!;
  const problems = [
    region(0, first, before, `before this page (pages 1-${page - 1} hold ${before})`),
    ...at.slice(1).map((p, i) => region(at[i]! + 1, p, 0, `between documents ${answer.ids[i]} and ${answer.ids[i + 1]}`)),
  ];
  const after = answer.total - before - at.length;
  if (at.length < limit && after !== 0) {
    problems.push(`a short page (${at.length} of ${limit}) must be the last, but total ${answer.total} says ${after} more`);
  } else {
    problems.push(region(last + 1, candidates.length, after, `after this page (total ${answer.total})`));
  }
  const problem = problems.find((p) => p !== undefined);
  return problem ? { ok: false, problem } : { ok: true, forced };
}
