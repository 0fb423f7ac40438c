import { describe, expect, it } from 'vitest';
import { judgeModelDocument } from './model-documents.js';
import type { KnownState } from './model-known-state.js';
import { judgeIdempotencyLifecycle } from './model-uploads.js';

const known: KnownState = {
  doc: { alias: 'D1', id: 7 },
  fileKind: 'word',
  lastSeen: 'processing',
  mayProcess: true,
  outcomes: ['completed'],
};
const answered = (status: number, code?: string, ids: number[] = []) => ({ status, code, ids });

describe('the model run’s document check', () => {
  it('holds a document to what the model knows of its run', () => {
    expect(judgeModelDocument({ kind: 'status-shown', ...known, status: 'completed', blame: false })).toBeUndefined();
    expect(judgeModelDocument({ kind: 'status-shown', ...known, status: 'failed', blame: false })?.expected).toBe(
      'completed (word file, last seen processing, its run may have ended since)',
    );
    const finished = { ...known, lastSeen: 'completed', mayProcess: false };
    expect(judgeModelDocument({ kind: 'status-shown', ...finished, status: 'processing', blame: true })?.expected).toBe(
      'completed (its run has ended): only a retry starts a new run',
    );
    expect(judgeModelDocument({ kind: 'retry-finished', ...finished, status: 409, code: 'document_busy' })?.expected).toContain(
      '202: D1 has finished',
    );
  });

  it('names the earlier list the model learnt a state from, when that is what the answer contradicts', () => {
    const inferred = { ...known, lastSeen: 'processing', mayProcess: false, inferredFrom: 'search "tok", page 1' };
    expect(judgeModelDocument({ kind: 'status-shown', ...inferred, status: 'processing', blame: true })?.note).toContain(
      'search "tok", page 1',
    );
  });

  it('compares the fields the model knows, the text the suite put in the file, and what stays as it was read', () => {
    expect(judgeModelDocument({ kind: 'fields', want: { a: 1 }, have: { a: 1 } })).toBeUndefined();
    expect(judgeModelDocument({ kind: 'fields', label: 'part 1', labelExpected: true, want: { a: 1 }, have: { a: 2 } })).toEqual({
      received: 'part 1: {"a":2}',
      expected: 'part 1: {"a":1}',
    });
    const text = { kind: 'text', name: 'D1', content: 'Hello ZQ', words: ['zq'], word: 'zq', lacksWord: false } as const;
    expect(judgeModelDocument(text)).toBeUndefined();
    expect(judgeModelDocument({ ...text, words: [], lacksWord: true })?.expected).toBe('text without "zq" (not in this file)');
    expect(judgeModelDocument({ kind: 'same-error', name: 'D1', error: { code: 'x' }, before: 'y' })?.expected).toBe(
      'error.code "y" as read before',
    );
  });

  it('wants a read of the key’s own document to be a 200, and one of the other key’s never to show another document', () => {
    expect(judgeModelDocument({ kind: 'read', alias: 'D1', status: 404, code: 'not_found' })?.received).toBe('404 "not_found"');
    const other = { kind: 'other-tenant', doc: { alias: 'D1', id: 7 }, status: 200, shown: { id: 8, filename: 'b.pdf' } } as const;
    expect(judgeModelDocument(other)?.received).toBe('200: document 8 ("b.pdf")');
    expect(judgeModelDocument({ ...other, status: 404, shown: { id: undefined, filename: undefined } })).toBeUndefined();
  });
});

describe('the model run’s Idempotency-Key check', () => {
  it('wants a repeat replayed, with the header saying so and the first upload’s names', () => {
    expect(judgeIdempotencyLifecycle({ kind: 'replay', answer: answered(202, undefined, [1, 2]), key: 'k', ids: [1, 2] })).toBeUndefined();
    expect(judgeIdempotencyLifecycle({ kind: 'replay', answer: answered(202, undefined, [3]), key: 'k', ids: [1] })).toEqual({
      received: '202 ids [3]',
      expected: '202 replaying the first upload under Idempotency-Key "k": ids [1], nothing created',
    });
    expect(judgeIdempotencyLifecycle({ kind: 'replay-header', header: 'Idempotent-Replayed', value: null })).toBeDefined();
    expect(judgeIdempotencyLifecycle({ kind: 'replay-names', filenames: ['a'], expected: ['b'] })).toBeDefined();
  });

  it('wants other files under a used key refused, and a key only failed uploads used to create new documents', () => {
    const refused = {
      kind: 'refused',
      answer: answered(202, undefined, [4]),
      allowed: [{ status: 409, code: 'idempotency_key_reused' }],
      key: 'k',
      keyed: true,
      remembered: true,
    } as const;
    expect(judgeIdempotencyLifecycle(refused)?.expected).toBe(
      '409 idempotency_key_reused, and nothing created (Idempotency-Key "k" was used for other files)',
    );
    expect(judgeIdempotencyLifecycle({ ...refused, answer: answered(409, 'idempotency_key_reused') })).toBeUndefined();
    const created = { kind: 'created', answer: answered(409, 'idempotency_key_reused'), parts: 1, key: 'k', keyed: true } as const;
    expect(judgeIdempotencyLifecycle(created)?.expected).toBe(
      '202 with 1 new document(s) (Idempotency-Key "k" was only used by uploads that failed, which are not remembered)',
    );
    expect(judgeModelDocument({ ...created, kind: 'one-per-part', answer: answered(202, undefined, [1, 2]) })?.expected).toContain(
      ', one per part',
    );
  });
});
