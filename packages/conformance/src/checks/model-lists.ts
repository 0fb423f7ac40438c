import { type Finding, fail } from '../definitions/check.js';
import { show } from '../definitions/describe.js';
import { type AnsweredPage, judgeWindow, type Membership, type WindowVerdict } from './list-window.js';
import { judgeKnownState, type KnownStateObservation } from './model-known-state.js';

// The judge of `model.lists`: what the stateful model expects of one page of a list (which of the sequence's
// documents match, as far as it can know while runs may end at any moment), beside the page the target answered.

/** One of the tenant's documents, newest first, and whether it matches the query (`maybe`: as its run ends). */
export interface ExpectedEntry {
  id: number;
  alias: string;
  membership: Membership;
}

/** The page a list asked for and the documents that may fill it. */
export interface ExpectedPage {
  page: number;
  limit: number;
  entries: readonly ExpectedEntry[];
}

/** A list's status: 200. */
export interface ListStatus {
  kind: 'status';
  status: number;
  code: unknown;
}

/** One listed document: one the sequence created (`alias`), listed once (`times`). */
export interface ListedDocument {
  kind: 'listed';
  id: number;
  filename: unknown;
  /** The alias of the sequence's document with that id; none when no accepted upload of the sequence returned it. */
  alias: string | undefined;
  /** How many times the page lists it. */
  times: number;
  expected: ExpectedPage;
}

/** One listed document and whether, in the status the list shows, it matches the query. */
export interface ListedMatch {
  kind: 'matches';
  alias: string;
  status: string;
  filename: unknown;
  matches: boolean;
  /** The query, in words. */
  query: string;
}

/** The page as answered, beside the documents the model says may fill it. */
export interface PageObservation {
  kind: 'page';
  expected: ExpectedPage;
  received: AnsweredPage;
}

export type ListObservation = ListStatus | ListedDocument | ListedMatch | PageObservation | KnownStateObservation;

/** What a list of the query should hold, in words, with documents whose run may have ended marked. */
export function describeExpectedPage({ page, limit, entries }: ExpectedPage): string {
  const marked = entries.filter((e) => e.membership !== 'out').map((e) => (e.membership === 'in' ? e.alias : `${e.alias}?`));
  const start = (page - 1) * limit;
  const sure = marked.filter((m) => !m.endsWith('?')).length;
  return `page ${page} (limit ${limit}) of the matching documents ${show(marked)}${
    sure < marked.length ? ' (? = matches only if its run has ended as the filter or search needs, which it may have by now)' : ''
  }: documents ${start + 1}-${start + limit}, total ${sure === marked.length ? sure : `${sure} to ${marked.length}`}`;
}

/** Whether the page is a window of the ordered matching list, and which uncertain documents it proves in or out (list-window.ts). */
export function windowOf({ expected, received }: PageObservation): WindowVerdict {
  // A listed document matched when it was listed, whatever the model was unsure of.
  const candidates = expected.entries.map((e) => ({ id: e.id, membership: received.ids.includes(e.id) ? 'in' : e.membership }) as const);
  return judgeWindow(candidates, received, expected.page, expected.limit);
}

/**
 * The judge of `model.lists`.
 * @example judgeModelList({ kind: 'status', status: 200, code: undefined })
 */
export function judgeModelList(o: ListObservation): Finding | undefined {
  switch (o.kind) {
    case 'status':
      return o.status === 200 ? undefined : fail(`${o.status} ${show(o.code ?? '')}`, '200');
    case 'listed':
      if (o.alias === undefined)
        return fail(
          `the list shows document ${o.id} ${show(o.filename)}`,
          `only documents this sequence created (${describeExpectedPage(o.expected)})`,
          'a document no accepted upload of the sequence returned matches its search term',
        );
      return o.times === 1 ? undefined : fail(`document ${o.id} listed twice on one page`, 'each document once');
    case 'matches':
      return o.matches ? undefined : fail(`${o.alias} listed as ${o.status} (${show(o.filename)})`, `only documents matching ${o.query}`);
    case 'page': {
      const verdict = windowOf(o);
      if (verdict.ok) return undefined;
      const { received } = o;
      const names = received.ids.map((id) => o.expected.entries.find((e) => e.id === id)?.alias ?? String(id));
      return fail(
        `page ${received.page}: ${show(names)}, total ${received.total}, total_pages ${received.totalPages}`,
        describeExpectedPage(o.expected),
        verdict.problem,
      );
    }
    default:
      return judgeKnownState(o);
  }
}
