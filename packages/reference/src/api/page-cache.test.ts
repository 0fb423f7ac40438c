import { describe, expect, it } from 'vitest';
import type { DocumentRecord, ListQuery } from '../model.js';
import { createPageCache } from './page-cache.js';

// A page answered from the cache must be the page the records make now: a change of any record, of
// the total or of the query is a new page, and records a store may still change are never cached.
const record = (id: number, changes: Partial<DocumentRecord> = {}, frozen = true): DocumentRecord => {
  const made: DocumentRecord = {
    id,
    tenant: 't',
    filename: `doc-${id}.pdf`,
    content_type: 'application/pdf',
    size_bytes: 10,
    status: 'processing',
    attempts: 1,
    error: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    processed_at: null,
    next_outcome: null,
    ...changes,
  };
  return frozen ? Object.freeze(made) : made;
};
const QUERY: ListQuery = { page: 1, limit: 2 };
const read = (body: Uint8Array) =>
  JSON.parse(new TextDecoder().decode(body)) as {
    documents: Array<{ document_id: number; status: string }>;
    pagination: { total: number };
  };

describe('a list page', () => {
  it('is the same bytes while its records and total are the same objects', () => {
    const pageBody = createPageCache();
    const records = [record(2), record(1)];
    const first = pageBody('t', QUERY, records, 2);
    expect(pageBody('t', QUERY, [...records], 2)).toBe(first);
    expect(read(first)).toMatchObject({
      documents: [{ document_id: 2 }, { document_id: 1 }],
      pagination: { page: 1, limit: 2, total: 2, total_pages: 1 },
    });
  });

  it.each([
    ['a record changed', [record(2), record(1, { status: 'completed' })], 2, QUERY, 't'],
    ['the total changed', [record(2), record(1)], 3, QUERY, 't'],
    ['another query', [record(2), record(1)], 2, { ...QUERY, status: 'processing' } as ListQuery, 't'],
    ['another tenant', [record(2), record(1)], 2, QUERY, 'u'],
  ] as const)('is made anew when %s, and says what is true now', (_why, records, total, query, tenant) => {
    const pageBody = createPageCache();
    const before = [record(2), record(1)];
    const old = pageBody('t', QUERY, before, 2);
    const now = pageBody(tenant, query, records, total);
    expect(now).not.toBe(old);
    expect(read(now).pagination.total).toBe(total);
    expect(read(now).documents.map((d) => d.status)).toEqual(records.map((r) => r.status));
  });

  it('is never kept when its records are not frozen (a store could change them in place)', () => {
    const pageBody = createPageCache();
    const records = [record(1, {}, false)];
    const first = pageBody('t', QUERY, records, 1);
    records[0]!.status = 'failed';
    expect(read(pageBody('t', QUERY, records, 1)).documents[0]!.status).toBe('failed');
    expect(pageBody('t', QUERY, records, 1)).not.toBe(first);
  });

  it('keeps at most `size` pages, dropping the oldest', () => {
    const pageBody = createPageCache(2);
    const records = [record(1)];
    const pages = [1, 2, 3].map((page) => pageBody('t', { page, limit: 1 }, records, 3));
    expect(pageBody('t', { page: 3, limit: 1 }, records, 3)).toBe(pages[2]);
    expect(pageBody('t', { page: 2, limit: 1 }, records, 3)).toBe(pages[1]);
    expect(pageBody('t', { page: 1, limit: 1 }, records, 3)).not.toBe(pages[0]);
  });
});
