import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import { startCli } from '@docproc-kit/test-support/processes.js';
import { contractFetch, type RunningReferenceServer, startReferenceInProcess, until } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Seeding through the mock controls, over HTTP against a real server (real store in a temp dir):
// an empty list, hundreds of documents, or every failure kind is one call.
const KEY = 'seed-key';
const OTHER = 'other-seed-key';
const API = '/api/v1/documents';
let server: RunningReferenceServer;
let contract: Contract;
let call: ReturnType<typeof contractFetch>;

beforeAll(async () => {
  [server, contract] = await Promise.all([startReferenceInProcess({ apiKeys: [KEY, OTHER], processingDelayMs: 50 }), loadContract()]);
  call = contractFetch(server, contract);
});
afterAll(() => server?.close());
beforeEach(async () => {
  await server.fetch(`${server.baseUrl}/_mock/reset`, { method: 'POST', headers: { 'x-api-key': KEY } });
});

async function seed(body: unknown, apiKey = KEY) {
  const res = await server.fetch(`${server.baseUrl}/_mock/seed`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
const list = async (query = '') => (await call('listDocuments', `${API}/get_documents${query}`)).body;
const read = async (id: number) => (await call('getDocument', `${API}/get_document/${id}`)).body;

describe('POST /_mock/seed', () => {
  it('creates documents directly in their states, as the API then shows them', async () => {
    const res = await seed({
      documents: [
        { filename: 'old-receipt.pdf', status: 'completed', content: 'CORNER BAKERY\nSourdough 4.50', age_s: 3600 },
        { filename: 'damaged.pdf', status: 'failed', error: { code: 'unreadable_document', message: 'The PDF is damaged.' }, age_s: 60 },
        { filename: 'flaky.pdf', status: 'failed', error: { code: 'processing_error', message: 'A worker crashed.' } },
      ],
    });
    expect(res.status).toBe(201);
    const [receipt, damaged, flaky] = res.body.documents;
    for (const doc of res.body.documents)
      expect(contract.validate(contract.document.components!.schemas!.Document as object, doc).errors).toEqual([]);
    expect(await read(receipt.document_id)).toMatchObject({
      filename: 'old-receipt.pdf',
      status: 'completed',
      content: 'CORNER BAKERY\nSourdough 4.50',
      error: null,
      content_type: 'application/pdf',
    });
    expect(Date.now() - Date.parse(receipt.created_at)).toBeGreaterThanOrEqual(3_599_000);
    expect(await read(damaged.document_id)).toMatchObject({
      status: 'failed',
      error: { code: 'unreadable_document', message: 'The PDF is damaged.' },
      content: null,
    });
    expect(flaky.error.code).toBe('processing_error');
    // Newest first, found by its text, filtered by status.
    expect((await list()).documents.map((d: { filename: string }) => d.filename)).toEqual(['flaky.pdf', 'damaged.pdf', 'old-receipt.pdf']);
    expect((await list('?search=sourdough')).documents.map((d: { document_id: number }) => d.document_id)).toEqual([receipt.document_id]);
    expect((await list('?status_filter=failed')).pagination.total).toBe(2);
  });

  it('makes 500 documents in one call, numbered by {n}', async () => {
    const res = await seed({ documents: [{ filename: 'bulk-{n}.pdf', status: 'completed', count: 500 }] });
    expect(res.status).toBe(201);
    const page = await list('?limit=100&page=5');
    expect(page.pagination).toEqual({ page: 5, limit: 100, total: 500, total_pages: 5 });
    expect(page.documents.at(-1).filename).toBe('bulk-1.pdf');
  }, 60_000);

  it('hands processing documents to the processor: they finish like uploads, with the text of their file', async () => {
    const res = await seed({ documents: [{ filename: 'pending.pdf', status: 'processing' }] });
    const id = res.body.documents[0].document_id;
    expect(res.body.documents[0].status).toBe('processing');
    expect(await until(async () => (await read(id)).status === 'completed', 20_000)).toBe(true);
    expect((await read(id)).content).toContain('pending.pdf');
  }, 30_000);

  it('gives every seeded document a stored file, so a retry runs for real', async () => {
    const res = await seed({ documents: [{ status: 'failed', filename: 'retry-me.pdf' }] });
    const id = res.body.documents[0].document_id;
    expect((await call('retryDocument', `${API}/retry_documents/${id}`, { method: 'POST' })).status).toBe(202);
    expect(await until(async () => (await read(id)).status === 'completed', 20_000)).toBe(true);
  }, 30_000);

  it('gives a document the runs it had (attempts), and a retry is the next one', async () => {
    const res = await seed({ documents: [{ status: 'failed', filename: 'third-try.pdf', attempts: 3 }] });
    const id = res.body.documents[0].document_id;
    expect(res.body.documents[0].attempts).toBe(3);
    expect((await read(id)).attempts).toBe(3);
    const retried = await call('retryDocument', `${API}/retry_documents/${id}`, { method: 'POST' });
    expect(retried.body).toMatchObject({ status: 'processing', attempts: 4 });
  }, 30_000);

  it("seeds only the caller's tenant", async () => {
    await seed({ documents: [{ status: 'completed' }] }, OTHER);
    expect((await list()).pagination.total).toBe(0);
  });

  it.each([
    { name: 'no documents array', body: {}, field: 'documents' },
    { name: 'an unknown status', body: { documents: [{ status: 'done' }] }, field: 'documents[0].status' },
    { name: 'content on a failed document', body: { documents: [{ status: 'failed', content: 'x' }] }, field: 'documents[0].content' },
    {
      name: 'an error code the contract lacks',
      body: { documents: [{ status: 'failed', error: { code: 'boom', message: 'x' } }] },
      field: 'documents[0].error',
    },
    { name: 'a negative age', body: { documents: [{ status: 'completed', age_s: -5 }] }, field: 'documents[0].age_s' },
    { name: 'no runs at all', body: { documents: [{ status: 'failed', attempts: 0 }] }, field: 'documents[0].attempts' },
    { name: 'a fraction of a run', body: { documents: [{ status: 'completed', attempts: 1.5 }] }, field: 'documents[0].attempts' },
    {
      name: 'more than 1000 documents',
      body: {
        documents: [
          { status: 'completed', count: 600 },
          { status: 'failed', count: 600 },
        ],
      },
      field: 'documents',
    },
    { name: 'an unknown field', body: { documents: [{ status: 'completed', owner: 'x' }] }, field: 'documents[0].owner' },
  ])('refuses $name with a 400 naming $field, and creates nothing', async ({ body, field }) => {
    const res = await seed(body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { name: string }) => e.name)).toContain(field);
    expect((await list()).pagination.total).toBe(0);
  });
});

describe('docproc serve --seed-file', () => {
  it('seeds a tenant with no documents at start-up, and not again after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docproc-seed-file-'));
    const file = join(dir, 'seed.json');
    await writeFile(
      file,
      JSON.stringify({
        documents: [
          { filename: 'welcome.pdf', status: 'completed', content: 'Hello' },
          { status: 'failed', count: 2 },
        ],
      }),
    );
    const args = ['serve', '--seed-file', file, '--data-dir', join(dir, 'data'), '--processing-delay-ms', '0'];
    const total = async (baseUrl: string) =>
      (await (await fetch(`${baseUrl}${API}/get_documents`, { headers: { 'x-api-key': 'docproc-dev-key' } })).json()).pagination
        .total as number;
    try {
      const first = await startCli(args, { readyPath: '/docs' });
      expect(await total(first.baseUrl)).toBe(3);
      expect(await first.stop()).toBe(0);
      const second = await startCli(args, { readyPath: '/docs' });
      expect(await total(second.baseUrl)).toBe(3);
      await second.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('seeds every body of an array for one tenant (a recording past one seed request), and none twice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docproc-seed-file-'));
    const file = join(dir, 'seed.json');
    await writeFile(
      file,
      JSON.stringify([
        { documents: [{ filename: 'a-{n}.pdf', status: 'completed', count: 1000 }] },
        { documents: [{ filename: 'b-{n}.pdf', status: 'failed', count: 200, attempts: 2 }] },
      ]),
    );
    const args = ['serve', '--seed-file', file, '--data-dir', join(dir, 'data'), '--processing-delay-ms', '0'];
    const get = async (baseUrl: string, query: string) =>
      (await fetch(`${baseUrl}${API}/get_documents${query}`, { headers: { 'x-api-key': 'docproc-dev-key' } })).json();
    try {
      const first = await startCli(args, { readyPath: '/docs' });
      expect((await get(first.baseUrl, '')).pagination.total).toBe(1200);
      expect((await get(first.baseUrl, '?status_filter=failed&limit=1')).documents[0]).toMatchObject({ attempts: 2 });
      expect(await first.stop()).toBe(0);
      const second = await startCli(args, { readyPath: '/docs' });
      expect((await get(second.baseUrl, '')).pagination.total).toBe(1200);
      await second.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses to start on a seed file it cannot apply, naming the file and the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docproc-seed-file-'));
    const file = join(dir, 'seed.json');
    await writeFile(file, JSON.stringify({ documents: [{ status: 'finished' }] }));
    try {
      await expect(startCli(['serve', '--seed-file', file, '--data-dir', join(dir, 'data')], { readyPath: '/docs' })).rejects.toThrow(
        /seed\.json: documents\[0\]\.status/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
