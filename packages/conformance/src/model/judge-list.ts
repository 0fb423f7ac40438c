import { checks } from '../checks/index.js';
import { show } from '../definitions/describe.js';
import { codeOf, type WireDocument } from '../transport/api.js';
import { judgeClockNotAfter } from './judge-clock.js';
import { observe } from './judge-document.js';
import { type Candidate, judgeWindow } from './list-window.js';
import { type Answer, describeQuery, type ListQuery, type ModelDoc, type ServiceModel, type Tenant, type Verify } from './state.js';

// The judge of one page of a list: which documents, in which order, with which totals, as far as the
// model can know while runs may end at any moment; what the page forces the model to learn.

/** Judges one page of the tenant's list for `query`. */
export function judgeList(m: ServiceModel, tenant: Tenant, query: ListQuery, answer: Answer, at: number, verify: Verify): void {
  const C = checks.model;
  verify(C.lists, answer.status === 200, () => ({ received: `${answer.status} ${show(codeOf(answer.body) ?? '')}`, expected: '200' }));
  const body = answer.body as {
    documents: WireDocument[];
    pagination: { page: number; limit: number; total: number; total_pages: number };
  };
  const listedIds = body.documents.map((d) => d.document_id);
  const mine = m.listed(tenant);
  const theirs = body.documents.map((w) => m.docs.find((d) => d.id === w.document_id)).find((d) => d && d.tenant !== tenant);
  // Only a list the other tenant's documents could leak into says anything about tenancy.
  if (m.docs.some((d) => d.tenant !== tenant))
    verify(checks.tenancy.listHidden, theirs === undefined, () => ({
      received: `the list shows ${theirs!.alias} (${theirs!.id} ${show(theirs!.filename)})`,
      expected: `only this key's documents: ${theirs!.alias} belongs to the other key`,
    }));
  for (const w of body.documents) {
    const doc = m.docs.find((d) => d.id === w.document_id);
    verify(C.lists, doc !== undefined, () => ({
      received: `the list shows document ${w.document_id} ${show(w.filename)}`,
      expected: `only documents this sequence created (${listExpectation(m, mine, query)})`,
      note: 'a document no accepted upload of the sequence returned matches its search term',
    }));
    verify(C.lists, listedIds.indexOf(w.document_id) === listedIds.lastIndexOf(w.document_id), () => ({
      received: `document ${w.document_id} listed twice on one page`,
      expected: 'each document once',
    }));
  }
  for (const w of body.documents) {
    judgeClockNotAfter(m, w, answer, verify, `document ${w.document_id} in the list`);
    observe(m, m.docs.find((d) => d.id === w.document_id)!, w, false, at, verify);
  }
  for (const w of body.documents) {
    const doc = m.docs.find((d) => d.id === w.document_id)!;
    verify(C.lists, m.matches(doc, w.status, query), () => ({
      received: `${doc.alias} listed as ${w.status} (${show(w.filename)})`,
      expected: `only documents matching ${describeQuery(query)}`,
    }));
  }
  const candidates: Candidate[] = mine.map((d) => ({
    id: d.id,
    membership: listedIds.includes(d.id) ? 'in' : m.membership(d, query),
  }));
  const verdict = judgeWindow(
    candidates,
    {
      ids: listedIds,
      page: body.pagination.page,
      limit: body.pagination.limit,
      total: body.pagination.total,
      totalPages: body.pagination.total_pages,
    },
    query.page,
    query.limit,
  );
  verify(C.lists, verdict.ok, () => ({
    received: `page ${body.pagination.page}: ${show(listedIds.map((id) => m.nameOf(id)))}, total ${body.pagination.total}, total_pages ${body.pagination.total_pages}`,
    expected: listExpectation(m, mine, query),
    note: verdict.ok ? undefined : verdict.problem,
  }));
  if (!verdict.ok) return;
  for (const [id, included] of verdict.forced) {
    const doc = mine.find((d) => d.id === id)!;
    if (listedIds.includes(id)) continue;
    const from = `${describeQuery(query)}, page ${query.page}, limit ${query.limit}: ${listedIds.length} listed, total ${body.pagination.total}, so ${doc.alias} ${included ? 'matched' : 'did not match'}`;
    m.narrow(doc, new Set(m.possible(doc).filter((s) => m.matches(doc, s, query) === included)), from);
  }
}

/** What a list of `query` should hold, in words, with documents whose run may have ended marked. */
export function listExpectation(m: ServiceModel, mine: ModelDoc[], query: ListQuery): string {
  const marked = mine
    .filter((d) => m.membership(d, query) !== 'out')
    .map((d) => (m.membership(d, query) === 'in' ? d.alias : `${d.alias}?`));
  const start = (query.page - 1) * query.limit;
  const sure = marked.filter((m) => !m.endsWith('?')).length;
  return `page ${query.page} (limit ${query.limit}) of the matching documents ${show(marked)}${
    sure < marked.length ? ' (? = matches only if its run has ended as the filter or search needs, which it may have by now)' : ''
  }: documents ${start + 1}-${start + query.limit}, total ${sure === marked.length ? sure : `${sure} to ${marked.length}`}`;
}
