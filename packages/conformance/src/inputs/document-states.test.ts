import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { describe, expect, it } from 'vitest';
import type { Exchange, KeyChoice } from '../definitions/exchange.js';
import {
  createStateTracker,
  documentStates,
  ENDED_SINCE_READ_RUNNING,
  ORDER_STATES,
  OTHER_TENANT,
  RETRIED,
  UNKNOWN_ID,
} from './document-states.js';
import { listViewStates } from './list-view-states.js';

const contract = await loadContract();
const base = 'http://127.0.0.1:4010/api/v1/documents';

/** An answered exchange, as the HTTP layer hands it over (only what the tracker reads). */
function exchange(
  operation: string,
  url: string,
  status: number,
  json: unknown,
  key: KeyChoice = 'primary',
  headers: Record<string, string> = {},
): Exchange {
  return {
    seq: 0,
    request: { method: 'GET', url: `${base}${url}`, key, headers },
    target: { label: operation, coverageKey: operation, kind: 'operation', operationId: operation, responses: {} },
    status,
    headers: new Headers(),
    mediaType: 'application/json',
    text: '',
    json,
    durationMs: 0,
    reproduce: () => '',
  };
}
const doc = (id: number, status: string) => ({ document_id: id, status });

describe('(operation × document state) pairs, derived from the contract', () => {
  it('come from the status enum, what a retry leaves behind, unknown ids, other tenants and the Idempotency-Key', () => {
    expect(Object.fromEntries(documentStates(contract).map((o) => [o.operation, o.states]))).toEqual({
      uploadDocuments: [
        'no Idempotency-Key',
        'a new Idempotency-Key',
        'the Idempotency-Key of an earlier upload',
        "the Idempotency-Key of another tenant's upload",
      ],
      listDocuments: [
        'holding a document processing',
        'holding a document completed',
        'holding a document failed',
        `holding a document ${RETRIED}`,
        'holding no document',
        ORDER_STATES.endedLater,
        ORDER_STATES.retried,
        ...listViewStates(['processing', 'completed', 'failed'], ['completed', 'failed'], {
          filter: 'status_filter',
          search: 'search',
          page: 'page',
        }),
      ],
      getDocument: ['processing', 'completed', 'failed', RETRIED, ENDED_SINCE_READ_RUNNING, UNKNOWN_ID, OTHER_TENANT],
      retryDocument: ['processing', 'completed', 'failed', RETRIED, UNKNOWN_ID, OTHER_TENANT],
    });
  });
});

describe('a state tracker, learning from the answers it sees', () => {
  // One story, step by step: what each request was sent to, judged by the answers before it.
  const tracker = createStateTracker(contract);
  const key = { 'Idempotency-Key': 'k1' };
  it.each<[string, Exchange, string[]]>([
    ['a list before any upload', exchange('listDocuments', '/get_documents', 200, { documents: [] }), ['holding no document']],
    [
      'an upload under a new key',
      exchange('uploadDocuments', '/upload_files', 202, { documents: [doc(7, 'processing')] }, 'primary', key),
      ['a new Idempotency-Key'],
    ],
    ['a read of the new document', exchange('getDocument', '/get_document/7', 200, doc(7, 'failed')), ['processing']],
    ['a retry of the failed document', exchange('retryDocument', '/retry_documents/7', 202, doc(7, 'processing')), ['failed']],
    ['a read while the retry runs', exchange('getDocument', '/get_document/7', 200, doc(7, 'processing')), [RETRIED]],
    [
      'a list while it runs again',
      exchange('listDocuments', '/get_documents', 200, { documents: [doc(7, 'completed')] }),
      [
        `holding a document ${RETRIED}`,
        // Read before, with every change since: the upload, its run ending failed, the retry.
        ...['an upload', 'a run ending failed', 'a retry'].map((c) => `no status_filter, read again after ${c}`),
      ],
    ],
    ['a retry once it completed', exchange('retryDocument', '/retry_documents/7', 409, {}), ['completed']],
    ["the other tenant's read of it", exchange('getDocument', '/get_document/7', 404, {}, 'secondary'), [OTHER_TENANT]],
    ['a read of an id never seen', exchange('getDocument', '/get_document/9007199254740991', 404, {}), [UNKNOWN_ID]],
    [
      'a read of an id spelled otherwise (an input partition, no state)',
      exchange('getDocument', '/get_document/07', 200, doc(7, 'completed')),
      [],
    ],
    ['a read without a key (no tenant, no state)', exchange('getDocument', '/get_document/7', 401, {}, 'none'), []],
    [
      'the upload repeated under its key',
      exchange('uploadDocuments', '/upload_files', 202, { documents: [doc(7, 'completed')] }, 'primary', key),
      ['the Idempotency-Key of an earlier upload'],
    ],
    [
      "the other tenant's upload under that key",
      exchange('uploadDocuments', '/upload_files', 202, { documents: [] }, 'secondary', key),
      ["the Idempotency-Key of another tenant's upload"],
    ],
    ['an upload without a key', exchange('uploadDocuments', '/upload_files', 400, {}), ['no Idempotency-Key']],
  ])('names %s', (_, sent, states) => {
    expect(tracker.observe(sent).map((s) => s.state)).toEqual(states);
  });
});

describe("a document's run read across its whole run", () => {
  const tracker = createStateTracker(contract);
  const read = (status: string) => exchange('getDocument', '/get_document/3', 200, doc(3, status));
  it.each<[string, Exchange, string[]]>([
    ['its upload', exchange('uploadDocuments', '/upload_files', 202, { documents: [doc(3, 'processing')] }), ['no Idempotency-Key']],
    ['a read while it runs', read('processing'), ['processing']],
    ['a read once it ended', read('completed'), ['processing', ENDED_SINCE_READ_RUNNING]],
    ['a read after that (its run ended before it)', read('completed'), ['completed']],
  ])('names %s', (_, sent, states) => {
    expect(tracker.observe(sent).map((s) => s.state)).toEqual(states);
  });

  it('is not reached by a document no read saw processing (it ended before the first one)', () => {
    const fast = createStateTracker(contract);
    fast.observe(exchange('uploadDocuments', '/upload_files', 202, { documents: [doc(4, 'processing')] }));
    expect(fast.observe(exchange('getDocument', '/get_document/4', 200, doc(4, 'completed'))).map((s) => s.state)).toEqual(['processing']);
  });
});

describe('a list read after an older document changed after a newer one', () => {
  const tracker = createStateTracker(contract);
  const at = (id: number, status: string, created: string, updated: string) => ({
    ...doc(id, status),
    created_at: `2024-05-02T09:00:${created}Z`,
    updated_at: `2024-05-02T09:00:${updated}Z`,
  });
  const list = (documents: unknown[]) => exchange('listDocuments', '/get_documents', 200, { documents });
  const order = (states: string[]) => states.filter((s) => (Object.values(ORDER_STATES) as string[]).includes(s));
  it.each<[string, Exchange, string[]]>([
    ['two uploads', exchange('uploadDocuments', '/upload_files', 202, { documents: [at(1, 'processing', '01', '01')] }), []],
    ['the second', exchange('uploadDocuments', '/upload_files', 202, { documents: [at(2, 'processing', '02', '02')] }), []],
    ['a list once both ended in upload order', list([at(2, 'completed', '02', '04'), at(1, 'completed', '01', '03')]), []],
    ['the older one retried', exchange('retryDocument', '/retry_documents/1', 202, at(1, 'processing', '01', '05')), []],
    ['a list while it runs again', list([at(2, 'completed', '02', '04'), at(1, 'completed', '01', '06')]), [ORDER_STATES.retried]],
    ['a list once it ended later', list([at(2, 'completed', '02', '04'), at(1, 'completed', '01', '06')]), [ORDER_STATES.endedLater]],
  ])('names %s', (_, sent, states) => {
    expect(order(tracker.observe(sent).map((s) => s.state))).toEqual(states);
  });
});

describe('(list view × change) pairs: a view read again after a kind of change', () => {
  it('are every view (no filter, each status, a search by filename or content, the last page, past it) after every kind of change', () => {
    const states = documentStates(contract).find((o) => o.operation === 'listDocuments')!.states;
    expect(states).toContain('status_filter failed, read again after a run ending failed');
    expect(states).toContain('a page past the last, read again after a refused upload (no change)');
    expect(states.filter((s) => s.includes('read again after'))).toHaveLength(8 * 6);
  });

  const tracker = createStateTracker(contract);
  const list = (query: string, documents: unknown[], page = 1, totalPages = 1) =>
    exchange('listDocuments', `/get_documents?${query}`, 200, { documents, pagination: { page, total_pages: totalPages } });
  const named = (id: number, status: string) => ({ ...doc(id, status), filename: `tok-${id}.pdf` });
  const upload = (status: number, documents: unknown[]) => exchange('uploadDocuments', '/upload_files', status, { documents });
  const after = (views: string[], changes: string[]) => views.flatMap((v) => changes.map((c) => `${v}, read again after ${c}`));
  it.each<[string, Exchange, string[]]>([
    ['a first read of a view (nothing to compare)', list('search=tok', []), []],
    ['an upload', upload(202, [named(1, 'processing'), named(2, 'processing')]), []],
    [
      'the view again',
      list('search=tok', [named(2, 'processing'), named(1, 'processing')]),
      after(['no status_filter', 'a search by filename', 'the last page'], ['an upload']),
    ],
    ['a read that shows a run ended', exchange('getDocument', '/get_document/2', 200, named(2, 'failed')), []],
    ['a filtered view past its last page, first read', list('status_filter=failed&search=TOK&page=3', [], 3, 1), []],
    ['a retry', exchange('retryDocument', '/retry_documents/2', 202, named(2, 'processing')), []],
    ['a replay', upload(202, [named(1, 'processing'), named(2, 'processing')]), []],
    ['a refused upload', upload(415, []), []],
    [
      'the filtered view again',
      list('status_filter=failed&search=TOK&page=3', [], 3, 1),
      after(
        ['status_filter failed', 'a search by filename', 'a page past the last'],
        ['a retry', 'a replayed upload (no change)', 'a refused upload (no change)'],
      ),
    ],
    ['a search by content, first read', list('search=pelican', [], 1, 0), []],
    [
      'the first view again: the run ended, then the retry',
      list('search=tok', [named(2, 'processing'), named(1, 'completed')]),
      after(
        ['no status_filter', 'a search by filename', 'the last page'],
        ['a run ending failed', 'a retry', 'a replayed upload (no change)', 'a refused upload (no change)'],
      ),
    ],
    [
      'the content search again, after that list showed a run end',
      list('search=pelican', [], 1, 0),
      after(['no status_filter', 'a search by content', 'a page past the last'], ['a run ending completed']),
    ],
  ])('names %s', (_, sent, states) => {
    const reached = tracker.observe(sent).filter((s) => s.state.includes('read again'));
    expect(reached.map((s) => s.state).sort()).toEqual([...states].sort());
  });
});
