import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { describe, expect, it } from 'vitest';
import type { Exchange, KeyChoice } from '../definitions/exchange.js';
import { createStateTracker, documentStates, OTHER_TENANT, RETRIED, UNKNOWN_ID } from './document-states.js';

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
      ],
      getDocument: ['processing', 'completed', 'failed', RETRIED, UNKNOWN_ID, OTHER_TENANT],
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
      [`holding a document ${RETRIED}`],
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
