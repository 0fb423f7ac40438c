import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import {
  contractFetch,
  fixture,
  type RunningReferenceServer,
  startReferenceInProcess,
  until,
} from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The mock controls frontend teams use, over HTTP: keyed like the API, problem+json errors.
const KEY = 'controls-key';
const OTHER = 'other-key';
const API = '/api/v1/documents';
let server: RunningReferenceServer;
let contract: Contract;
let call: ReturnType<typeof contractFetch>;

beforeAll(async () => {
  // On the lowdb store: the reset test looks for the files it must delete.
  [server, contract] = await Promise.all([
    startReferenceInProcess({ apiKeys: [KEY, OTHER], processingDelayMs: 50, store: 'lowdb' }),
    loadContract(),
  ]);
  call = contractFetch(server, contract);
});
afterAll(() => server?.close());

/** Calls a mock control; any error must be a contract Problem. */
async function control(method: string, path: string, body?: unknown, apiKey: string | null = KEY, rawBody?: string) {
  const headers: Record<string, string> = {};
  if (apiKey) headers['x-api-key'] = apiKey;
  if (body !== undefined || rawBody !== undefined) headers['content-type'] = 'application/json';
  const res = await server.fetch(`${server.baseUrl}/_mock${path}`, {
    method,
    headers,
    body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  expect(res.headers.get('x-request-id')).toBeTruthy();
  const json = await res.json();
  if (res.status >= 400) {
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(contract.validate(contract.document.components!.schemas!.Problem as object, json).errors).toEqual([]);
  }
  return { status: res.status, headers: res.headers, body: json };
}

async function upload(name: string, as = name, apiKey = KEY): Promise<number> {
  const body = new FormData();
  body.append('files[]', await fixture(name), as);
  return (await call('uploadDocuments', `${API}/upload_files`, { method: 'POST', body, apiKey })).body.documents[0].document_id;
}

async function finished(id: number, apiKey = KEY) {
  let doc: Record<string, unknown> = {};
  await until(async () => {
    doc = (await call('getDocument', `${API}/get_document/${id}`, { apiKey })).body;
    return doc.status !== 'processing';
  }, 20_000);
  return doc;
}

describe('keyed like the API', () => {
  it.each([
    ['POST', '/reset'],
    ['GET', '/settings'],
    ['PATCH', '/settings'],
    ['POST', '/documents/1/next-outcome'],
  ])('%s %s without a key is a 401 problem', async (method, path) => {
    const res = await control(method, path, undefined, null);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it.each([
    ['GET', '/reset', 'POST'],
    ['DELETE', '/settings', 'GET, HEAD, PATCH'],
    ['GET', '/documents/1/next-outcome', 'POST'],
  ])('%s %s is a 405 with Allow: %s', async (method, path, allow) => {
    const res = await control(method, path);
    expect([res.status, res.body.code, res.headers.get('allow')]).toEqual([405, 'method_not_allowed', allow]);
  });

  it('an unknown control is a 404 problem', async () => {
    expect((await control('POST', '/nope')).status).toBe(404);
  });
});

describe('settings', () => {
  it('start at the server’s options and change per tenant', async () => {
    expect((await control('GET', '/settings')).body).toEqual({ processing_delay_ms: 50, failure_rate: 0 });
    expect((await control('PATCH', '/settings', { failure_rate: 0.25 })).body).toEqual({ processing_delay_ms: 50, failure_rate: 0.25 });
    expect((await control('GET', '/settings', undefined, OTHER)).body).toEqual({ processing_delay_ms: 50, failure_rate: 0 });
    await control('PATCH', '/settings', { failure_rate: 0 });
  });

  it.each([
    [{ processing_delay_ms: -1 }, 'processing_delay_ms'],
    [{ processing_delay_ms: 1.5 }, 'processing_delay_ms'],
    [{ processing_delay_ms: '100' }, 'processing_delay_ms'],
    [{ failure_rate: 1.01 }, 'failure_rate'],
    [{ failure_rate: null }, 'failure_rate'],
    [{ failure_rte: 0.5 }, 'failure_rte'],
    [[1, 2], 'body'],
  ])('refuse %j naming %s', async (body, name) => {
    const res = await control('PATCH', '/settings', body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ in: 'body', name })]);
  });

  it('refuse a body that is not JSON', async () => {
    const res = await control('PATCH', '/settings', undefined, KEY, '{"failure_rate": ');
    expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
  });

  it('failure_rate 1 fails every good run with processing_error; back to 0 they complete', async () => {
    await control('PATCH', '/settings', { failure_rate: 1 });
    const failed = await finished(await upload('text.pdf'));
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'processing_error' } });
    await control('PATCH', '/settings', { failure_rate: 0 });
    expect(await finished(await upload('text.pdf'))).toMatchObject({ status: 'completed' });
  });

  it('processing_delay_ms keeps new runs processing at least that long', async () => {
    await control('PATCH', '/settings', { processing_delay_ms: 700 });
    const doc = await finished(await upload('text.pdf'));
    await control('PATCH', '/settings', { processing_delay_ms: 50 });
    expect(Date.parse(doc.processed_at as string) - Date.parse(doc.created_at as string)).toBeGreaterThanOrEqual(700);
  });
});

describe('forcing the next outcome of a document', () => {
  it('shows a failed state on demand for a good file, with the chosen error, once', async () => {
    await control('PATCH', '/settings', { processing_delay_ms: 400 });
    const id = await upload('text.pdf');
    const error = { code: 'processing_error', message: 'The OCR service timed out (forced).' };
    const forced = await control('POST', `/documents/${id}/next-outcome`, { outcome: 'failed', error });
    await control('PATCH', '/settings', { processing_delay_ms: 50 });
    expect(forced).toMatchObject({ status: 200, body: { document_id: id, next_outcome: { outcome: 'failed', error } } });
    expect(await finished(id)).toMatchObject({ status: 'failed', error, content: null });
    // Used up: the retry runs normally.
    await call('retryDocument', `${API}/retry_documents/${id}`, { method: 'POST' });
    expect(await finished(id)).toMatchObject({ status: 'completed', attempts: 2, content: expect.stringContaining('PELICAN') });
  });

  it('completes a damaged file with chosen text on its next run (a retry)', async () => {
    const id = await upload('corrupt.pdf');
    expect(await finished(id)).toMatchObject({ status: 'failed' });
    await control('POST', `/documents/${id}/next-outcome`, { outcome: 'completed', content: 'Forced text' });
    await call('retryDocument', `${API}/retry_documents/${id}`, { method: 'POST' });
    expect(await finished(id)).toMatchObject({ status: 'completed', content: 'Forced text', error: null });
  });

  it.each([
    [{}, 'outcome'],
    [{ outcome: 'exploded' }, 'outcome'],
    [{ outcome: 'failed', error: { code: 'nope', message: 'x' } }, 'error'],
    [{ outcome: 'failed', error: { code: 'processing_error', message: '' } }, 'error'],
    [{ outcome: 'completed', content: 42 }, 'content'],
    [{ outcome: 'completed', error: {} }, 'error'],
  ])('refuses %j naming %s', async (body, name) => {
    const res = await control('POST', '/documents/1/next-outcome', body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ name })]);
  });

  it('is a 404 for another tenant’s document and a 400 for a bad id', async () => {
    const id = await upload('text.pdf');
    expect((await control('POST', `/documents/${id}/next-outcome`, { outcome: 'failed' }, OTHER)).status).toBe(404);
    expect((await control('POST', '/documents/1.5/next-outcome', { outcome: 'failed' })).status).toBe(400);
  });
});

describe('reset', () => {
  it('deletes the tenant’s documents and files, restores its settings, and never reuses ids', async () => {
    const before = await upload('text.pdf');
    await finished(before);
    const theirs = await upload('text.pdf', 'theirs.pdf', OTHER);
    await control('PATCH', '/settings', { failure_rate: 0.5 });
    const reset = await control('POST', '/reset');
    expect(reset.body).toEqual({
      deleted_documents: expect.any(Number),
      settings: { processing_delay_ms: 50, failure_rate: 0 },
      faults: { latency_ms: 0, jitter_ms: 0, errors: {} },
    });
    expect(reset.body.deleted_documents).toBeGreaterThan(0);
    expect((await call('listDocuments', `${API}/get_documents`)).body.pagination.total).toBe(0);
    expect((await call('getDocument', `${API}/get_document/${before}`)).status).toBe(404);
    expect(await readdir(join(server.dataDir, 'files'))).toEqual([String(theirs)]);
    expect((await call('getDocument', `${API}/get_document/${theirs}`, { apiKey: OTHER })).status).toBe(200);
    expect(await upload('text.pdf')).toBeGreaterThan(theirs);
  });
});
