import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import {
  contractFetch,
  fixture,
  type RunningReferenceServer,
  startReferenceInProcess,
} from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// listDocuments exactly as the contract says: order, pagination, filters, literal search,
// validation without clamping. The clock is the test's, so creation times are known.
const LIST = '/api/v1/documents/get_documents';
let server: RunningReferenceServer;
let contract: Contract;
let call: ReturnType<typeof contractFetch>;
let now = Date.parse('2024-05-02T09:00:00.000Z');

interface Summary {
  document_id: number;
  filename: string;
  status: string;
  created_at: string;
}
let all: Summary[] = [];

async function upload(files: Array<[fixtureName: string, filename: string]>) {
  const body = new FormData();
  for (const [name, filename] of files) body.append('files[]', await fixture(name), filename);
  now += 60_000;
  return (await call('uploadDocuments', '/api/v1/documents/upload_files', { method: 'POST', body })).body.documents as Summary[];
}
const list = async (query = '') =>
  (await call('listDocuments', `${LIST}${query}`)).body as { documents: Summary[]; pagination: Record<string, number> };

beforeAll(async () => {
  [server, contract] = await Promise.all([startReferenceInProcess({ clock: () => new Date(now) }), loadContract()]);
  call = contractFetch(server, contract);
  // One batch (one created_at), then one upload per minute.
  await upload([
    ['text.pdf', 'alpha.pdf'],
    ['multipage.pdf', 'bravo.pdf'],
    ['text.pdf', 'charlie.pdf'],
  ]);
  await upload([['text.pdf', 'Report (final) [v2].PDF']]);
  await upload([['corrupt.pdf', 'broken.pdf']]);
  await upload([['multipage.pdf', '50% off.pdf']]);
  await upload([['multipage.pdf', 'ÉCOLE résumé.pdf']]);
  await server.service.processor.idle();
  // The last one stays processing: its tenant's runs now last ten minutes.
  await server.fetch(`${server.baseUrl}/_mock/settings`, {
    method: 'PATCH',
    headers: { 'x-api-key': server.apiKeys[0]!, 'content-type': 'application/json' },
    body: JSON.stringify({ processing_delay_ms: 600_000 }),
  });
  await upload([['text.pdf', 'pending.pdf']]);
  all = (await list('?limit=100')).documents;
}, 60_000);
afterAll(() => server?.close());

describe('order', () => {
  it('is newest first: created_at descending, then document_id descending', () => {
    expect(all.map((d) => d.filename)).toEqual([
      'pending.pdf',
      'ÉCOLE résumé.pdf',
      '50% off.pdf',
      'broken.pdf',
      'Report (final) [v2].PDF',
      'charlie.pdf',
      'bravo.pdf',
      'alpha.pdf',
    ]);
    const sorted = [...all].sort((a, b) =>
      a.created_at === b.created_at ? b.document_id - a.document_id : a.created_at < b.created_at ? 1 : -1,
    );
    expect(all).toEqual(sorted);
  });
});

describe('pagination', () => {
  it('defaults to page 1 of 20', async () => {
    expect((await list()).pagination).toEqual({ page: 1, limit: 20, total: 8, total_pages: 1 });
  });

  it('pages of 3 cover the list exactly once, in order, with true totals on every page', async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => list(`?limit=3&page=${page}`)));
    expect(pages.map((p) => p.documents.length)).toEqual([3, 3, 2]);
    expect(pages.flatMap((p) => p.documents)).toEqual(all);
    expect(pages.map((p) => p.pagination)).toEqual([1, 2, 3].map((page) => ({ page, limit: 3, total: 8, total_pages: 3 })));
  });

  it.each([
    ['?page=4&limit=3', { page: 4, limit: 3, total: 8, total_pages: 3 }],
    ['?page=9007199254740991', { page: 9007199254740991, limit: 20, total: 8, total_pages: 1 }],
  ])('a page past the end (%s) is empty with the true totals', async (query, pagination) => {
    expect(await list(query)).toEqual({ documents: [], pagination });
  });

  it.each([1, 100])('limit %i is accepted as is', async (limit) => {
    expect((await list(`?limit=${limit}`)).pagination).toMatchObject({ limit, total_pages: Math.ceil(8 / limit) });
  });

  it('total_pages is 0 when nothing matches', async () => {
    expect((await list('?search=zzzz-nothing')).pagination).toEqual({ page: 1, limit: 20, total: 0, total_pages: 0 });
  });
});

describe('filters', () => {
  it.each([
    ['completed', ['ÉCOLE résumé.pdf', '50% off.pdf', 'Report (final) [v2].PDF', 'charlie.pdf', 'bravo.pdf', 'alpha.pdf']],
    ['failed', ['broken.pdf']],
    ['processing', ['pending.pdf']],
  ])('status_filter=%s keeps exactly that status', async (status, names) => {
    const { documents, pagination } = await list(`?status_filter=${status}`);
    expect(documents.map((d) => d.filename)).toEqual(names);
    expect(pagination.total).toBe(names.length);
  });

  it.each([
    ['report', ['Report (final) [v2].PDF'], 'filename, any case'],
    ['PELICAN', ['Report (final) [v2].PDF', 'charlie.pdf', 'alpha.pdf'], 'extracted text of completed documents only'],
    ['bravo', ['50% off.pdf', 'ÉCOLE résumé.pdf', 'bravo.pdf'].sort(), 'text or filename'],
    ['(final) [v2]', ['Report (final) [v2].PDF'], 'regex characters, literally'],
    ['.*', [], 'a regex wildcard, literally (no match)'],
    ['50%', ['50% off.pdf'], 'a percent sign'],
    ['école', ['ÉCOLE résumé.pdf'], 'non-ASCII, any case'],
  ])('search=%s matches %j (%s)', async (term, names) => {
    const { documents } = await list(`?search=${encodeURIComponent(term)}`);
    expect(documents.map((d) => d.filename).sort()).toEqual([...names].sort());
  });

  it('combines search and status_filter', async () => {
    const { documents } = await list(`?search=pdf&status_filter=failed`);
    expect(documents.map((d) => d.filename)).toEqual(['broken.pdf']);
  });

  it('a search term of 200 characters is accepted, counted in characters not UTF-16 units', async () => {
    expect((await list(`?search=${'x'.repeat(200)}`)).pagination.total).toBe(0);
    expect((await list(`?search=${encodeURIComponent('📄'.repeat(200))}`)).pagination.total).toBe(0);
  });

  it('ignores unknown parameters, such as cache-busters', async () => {
    expect((await list('?_=1714641243&foo=bar&page[]=3')).pagination).toEqual({ page: 1, limit: 20, total: 8, total_pages: 1 });
  });
});

describe('validation: every parameter checked, nothing clamped', () => {
  const invalid: Array<[string, string]> = [
    ...['', '0', '-1', '1.5', '1e2', 'abc', '+1', '%201', '0x1', '9007199254740992'].map((v): [string, string] => ['page', v]),
    ...['', '0', '101', '1.0', 'ten', '-20'].map((v): [string, string] => ['limit', v]),
    ...['', 'PROCESSING', 'done', 'completed,failed'].map((v): [string, string] => ['status_filter', v]),
    ['search', ''],
    ['search', 'x'.repeat(201)],
  ];

  it.each(invalid)('%s=%s is a 400 naming it', async (name, value) => {
    const res = await call('listDocuments', `${LIST}?${name}=${value}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ in: 'query', name, message: expect.any(String) }]);
  });

  it.each(['page', 'limit', 'status_filter', 'search'])('a repeated %s is a 400 naming it', async (name) => {
    const value = name === 'status_filter' ? 'failed' : '1';
    const res = await call('listDocuments', `${LIST}?${name}=${value}&${name}=${value}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ in: 'query', name, message: 'must be given at most once' }]);
  });

  it('reports every invalid parameter at once', async () => {
    const res = await call('listDocuments', `${LIST}?page=0&limit=500&status_filter=nope&search=`);
    expect(res.body.errors.map((e: { name: string }) => e.name)).toEqual(['page', 'limit', 'status_filter', 'search']);
    expect(res.body.detail).toBe('The request has 4 invalid parameters.');
  });
});
