import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import { describe, expect, it } from 'vitest';
import type { DocumentRecord, DocumentStatus } from '../model.js';
import { createTenantIndex, listPage, type Searchable } from './tenant-index.js';

const record = (id: number, created_at: string, status: DocumentStatus = 'completed', filename = `${id}.pdf`): DocumentRecord => ({
  id,
  tenant: 't',
  filename,
  content_type: 'application/pdf',
  size_bytes: 1,
  status,
  attempts: 1,
  error: null,
  created_at,
  updated_at: created_at,
  processed_at: null,
  next_outcome: null,
});
const ids = (page: { documents: DocumentRecord[] }) => page.documents.map((d) => d.id);
const searchable = (text: (r: DocumentRecord) => string | undefined): Searchable => ({ name: (r) => foldForSearch(r.filename), text });
const noText = searchable(() => undefined);

describe('a tenant index', () => {
  it('lists newest first by created_at then id, even when records arrive out of order (a clock stepped back)', () => {
    const index = createTenantIndex();
    for (const r of [record(1, '2024-01-02'), record(2, '2024-01-03'), record(3, '2024-01-01'), record(4, '2024-01-03')]) index.add(r);
    expect(ids(listPage(index, { page: 1, limit: 10 }, noText))).toEqual([4, 2, 1, 3]);
  });

  it.each([
    { query: { page: 1, limit: 2 }, expected: [5, 4], total: 5 },
    { query: { page: 3, limit: 2 }, expected: [1], total: 5 },
    { query: { page: 4, limit: 2 }, expected: [], total: 5 },
    { query: { page: 1, limit: 10, status: 'failed' as const }, expected: [4, 2], total: 2 },
    { query: { page: 2, limit: 1, status: 'failed' as const }, expected: [2], total: 2 },
    { query: { page: 1, limit: 10, search: 'INVOICE' }, expected: [5, 3], total: 2 },
    { query: { page: 1, limit: 10, search: 'pelican' }, expected: [1], total: 1 },
    { query: { page: 1, limit: 10, search: 'pelican', status: 'failed' as const }, expected: [], total: 0 },
  ])('pages $query to $expected of $total', ({ query, expected, total }) => {
    const index = createTenantIndex();
    const names = ['scan.png', 'a.pdf', 'invoice-1.pdf', 'b.pdf', 'Invoice-2.pdf'];
    for (const [i, name] of names.entries()) index.add(record(i + 1, `2024-01-0${i + 1}`, i % 2 ? 'failed' : 'completed', name));
    const page = listPage(
      index,
      query,
      searchable((r) => (r.id === 1 ? 'receipt pelican' : undefined)),
    );
    expect({ ids: ids(page), total: page.total }).toEqual({ ids: expected, total });
  });

  it('keeps its status counts right through updates and removals', () => {
    const index = createTenantIndex();
    const a = record(1, '2024-01-01', 'processing');
    const b = record(2, '2024-01-02', 'processing');
    index.add(a);
    index.add(b);
    index.update(a, { ...a, status: 'completed' });
    index.remove(b);
    expect([index.count(), index.count('processing'), index.count('completed'), index.count('failed')]).toEqual([1, 0, 1, 0]);
  });
});
