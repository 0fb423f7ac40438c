import { checks } from '../checks/index.js';
import type { ExpectedPage, PageObservation } from '../checks/model-lists.js';
import { describeExpectedPage, windowOf } from '../checks/model-lists.js';
import { show } from '../definitions/describe.js';
import { codeOf, type WireDocument } from '../transport/api.js';
import { judgeClockNotAfter } from './judge-clock.js';
import { observe } from './judge-document.js';
import { type Answer, describeQuery, type ListQuery, type ModelDoc, type ModelJudge, type ServiceModel, type Tenant } from './state.js';

// The model's side of one page of a list: which documents, in which order, with which totals the model can
// know while runs may end at any moment goes with the page to `model.lists`; what the page forces the model to learn.

/** Judges one page of the tenant's list for `query`. */
export function judgeList(m: ServiceModel, tenant: Tenant, query: ListQuery, answer: Answer, at: number, judge: ModelJudge): void {
  const C = checks.model;
  judge.check(C.lists, { kind: 'status', status: answer.status, code: codeOf(answer.body) });
  const body = answer.body as {
    documents: WireDocument[];
    pagination: { page: number; limit: number; total: number; total_pages: number };
  };
  const listedIds = body.documents.map((d) => d.document_id);
  const mine = m.listed(tenant);
  const theirs = body.documents.map((w) => m.docs.find((d) => d.id === w.document_id)).find((d) => d && d.tenant !== tenant);
  // Only a list the other tenant's documents could leak into says anything about tenancy.
  if (m.docs.some((d) => d.tenant !== tenant))
    judge.verify(checks.tenancy.listHidden, theirs === undefined, () => ({
      received: `the list shows ${theirs!.alias} (${theirs!.id} ${show(theirs!.filename)})`,
      expected: `only this key's documents: ${theirs!.alias} belongs to the other key`,
    }));
  const expectedBefore = expectedPage(m, mine, query);
  for (const w of body.documents) {
    const id = w.document_id;
    judge.check(C.lists, {
      kind: 'listed',
      id,
      filename: w.filename,
      alias: m.docs.find((d) => d.id === id)?.alias,
      times: listedIds.filter((x) => x === id).length,
      expected: expectedBefore,
    });
  }
  for (const w of body.documents) {
    judgeClockNotAfter(m, w, answer, judge, `document ${w.document_id} in the list`);
    observe(m, m.docs.find((d) => d.id === w.document_id)!, w, false, at, judge);
  }
  for (const w of body.documents) {
    const doc = m.docs.find((d) => d.id === w.document_id)!;
    judge.check(C.lists, {
      kind: 'matches',
      alias: doc.alias,
      status: w.status,
      filename: w.filename,
      matches: m.matches(doc, w.status, query),
      query: describeQuery(query),
    });
  }
  const page: PageObservation = {
    kind: 'page',
    expected: expectedPage(m, mine, query),
    received: {
      ids: listedIds,
      page: body.pagination.page,
      limit: body.pagination.limit,
      total: body.pagination.total,
      totalPages: body.pagination.total_pages,
    },
  };
  judge.check(C.lists, page);
  const verdict = windowOf(page);
  if (!verdict.ok) return;
  for (const [id, included] of verdict.forced) {
    const doc = mine.find((d) => d.id === id)!;
    if (listedIds.includes(id)) continue;
    const from = `${describeQuery(query)}, page ${query.page}, limit ${query.limit}: ${listedIds.length} listed, total ${body.pagination.total}, so ${doc.alias} ${included ? 'matched' : 'did not match'}`;
    m.narrow(doc, new Set(m.possible(doc).filter((s) => m.matches(doc, s, query) === included)), from);
  }
}

/** The page of `query` and the tenant's documents (newest first) that may fill it, as the model knows them now. */
function expectedPage(m: ServiceModel, mine: ModelDoc[], query: ListQuery): ExpectedPage {
  return {
    page: query.page,
    limit: query.limit,
    entries: mine.map((d) => ({ id: d.id, alias: d.alias, membership: m.membership(d, query) })),
  };
}

/** What a list of `query` should hold, in words, with documents whose run may have ended marked. */
export function listExpectation(m: ServiceModel, mine: ModelDoc[], query: ListQuery): string {
  return describeExpectedPage(expectedPage(m, mine, query));
}
