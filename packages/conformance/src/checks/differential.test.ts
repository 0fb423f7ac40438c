import { describe, expect, it } from 'vitest';
import { type Answer, compareAnswers, type Sent } from './differential.js';

const doc = (id: number, extra: Record<string, unknown> = {}) => ({
  document_id: id,
  filename: 'a.pdf',
  content_type: 'application/pdf',
  size_bytes: 10,
  status: 'completed',
  attempts: 1,
  error: null,
  content: 'two words',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:01.000Z',
  processed_at: '2026-01-01T00:00:01.000Z',
  ...extra,
});

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  const h = new Headers({ 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers });
  return { status, mediaType: h.get('content-type')!, body, header: (name) => h.get(name) };
}

const problem = (status: number, code: string, errors?: unknown[], detail = 'wording') => ({
  type: 'about:blank',
  title: 'Bad',
  status,
  detail,
  code,
  ...(errors ? { errors } : {}),
});

// The target names its documents 101, 102; the reference 1, 2: both are D1, D2.
const aliases = { target: (id: number) => ({ 101: 'D1', 102: 'D2' })[id], reference: (id: number) => ({ 1: 'D1', 2: 'D2' })[id] };
const sent: Sent = { requestId: 'r-1', either: [] };

describe('the oracle lets a deployment differ only where the contract lets it', () => {
  it.each([
    ['its own ids for the same documents', answer(200, doc(101)), answer(200, doc(1))],
    ['other times, keys in another order', answer(200, { ...doc(101, { created_at: '2030-01-01T00:00:00Z' }) }), answer(200, doc(1))],
    [
      'other wording of a problem',
      answer(404, problem(404, 'not_found', undefined, 'No such document.')),
      answer(404, problem(404, 'not_found')),
    ],
    ['other whitespace between the words of the text', answer(200, doc(101, { content: 'two\n words ' })), answer(200, doc(1))],
    [
      'another letter case of a header named in errors',
      answer(400, problem(400, 'invalid_request', [{ in: 'header', name: 'Content-Type', message: 'x' }])),
      answer(400, problem(400, 'invalid_request', [{ in: 'header', name: 'content-type', message: 'y' }])),
    ],
    ['properties the reference does not send', answer(200, doc(101, { pages: 3 })), answer(200, doc(1))],
    [
      'a replay answered with the documents as they are now',
      answer(202, { documents: [doc(101)] }, { 'idempotent-replayed': 'true' }),
      answer(202, { documents: [doc(1, { status: 'processing', content: null, processed_at: null })] }, { 'idempotent-replayed': 'true' }),
    ],
    [
      'an Allow listing more methods',
      answer(405, problem(405, 'method_not_allowed'), { allow: 'GET, HEAD' }),
      answer(405, problem(405, 'method_not_allowed'), { allow: 'GET' }),
    ],
    [
      'an Allow without HEAD beside GET',
      answer(405, problem(405, 'method_not_allowed'), { allow: 'GET' }),
      answer(405, problem(405, 'method_not_allowed'), { allow: 'GET, HEAD' }),
    ],
  ])('%s is no difference', (_, target, reference) => {
    expect(compareAnswers(target, reference, sent, aliases)).toEqual([]);
  });

  it.each([
    ['a status', answer(200, doc(101)), answer(404, problem(404, 'not_found')), 'status'],
    ['another document', answer(200, doc(102)), answer(200, doc(1)), 'body.document_id'],
    ['a filename changed', answer(200, doc(101, { filename: 'b.pdf' })), answer(200, doc(1)), 'body.filename'],
    ['a time that is null on one side', answer(200, doc(101, { processed_at: null })), answer(200, doc(1)), 'body.processed_at'],
    [
      'an error code',
      answer(200, doc(101, { status: 'failed', content: null, error: { code: 'processing_error', message: 'a' } })),
      answer(200, doc(1, { status: 'failed', content: null, error: { code: 'unreadable_document', message: 'b' } })),
      'body.error.code',
    ],
    [
      'a list item carrying its text',
      answer(200, { documents: [doc(101)], pagination: {} }),
      answer(200, { documents: [(({ content: _, ...d }) => d)(doc(1))], pagination: {} }),
      'body.documents[0].content',
    ],
    [
      'a field error naming another parameter',
      answer(400, problem(400, 'invalid_request', [{ in: 'query', name: 'page', message: 'x' }])),
      answer(400, problem(400, 'invalid_request', [{ in: 'query', name: 'limit', message: 'x' }])),
      'body.errors[0]',
    ],
    [
      'a request id not echoed',
      answer(200, doc(101), { 'x-request-id': 'made-up' }),
      answer(200, doc(1), { 'x-request-id': 'r-1' }),
      'X-Request-Id',
    ],
    [
      'a replay not said',
      answer(202, { documents: [doc(101)] }),
      answer(202, { documents: [doc(1)] }, { 'idempotent-replayed': 'true' }),
      'Idempotent-Replayed',
    ],
    ['words of the text', answer(200, doc(101, { content: 'two' })), answer(200, doc(1)), 'body.content'],
  ])('%s is a difference', (_, target, reference, at) => {
    expect(compareAnswers(target, reference, sent, aliases).map((d) => d.at)).toContain(at);
  });

  it('a parameter spelled either way may be refused, naming it, where the reference read the number', () => {
    const refused = answer(400, problem(400, 'invalid_request', [{ in: 'query', name: 'page', message: 'x' }]));
    expect(compareAnswers(refused, answer(200, { documents: [] }), { ...sent, either: ['query page'] }, aliases)).toEqual([]);
    expect(compareAnswers(refused, answer(200, { documents: [] }), { ...sent, either: ['query limit'] }, aliases)).not.toEqual([]);
  });

  it('an upload with several faults may be refused for any one of them, and for nothing else', () => {
    const faults = [
      { status: 400, code: 'invalid_request' },
      { status: 413, code: 'too_many_files' },
    ];
    const tooMany = answer(413, problem(413, 'too_many_files'));
    const badName = answer(400, problem(400, 'invalid_request', [{ in: 'body', name: 'files[]', message: 'x' }]));
    expect(compareAnswers(badName, tooMany, { ...sent, faults }, aliases)).toEqual([]);
    expect(compareAnswers(answer(415, problem(415, 'unsupported_media_type')), tooMany, { ...sent, faults }, aliases)).not.toEqual([]);
    expect(compareAnswers(badName, tooMany, { ...sent, faults: faults.slice(1) }, aliases)).not.toEqual([]);
  });
});
