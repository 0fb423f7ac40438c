import { readFile } from 'node:fs/promises';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createDocprocFetch } from './docproc-fetch.js';

// The request journal as a frontend developer reads it: through controls.requests() and GET /_mock/requests
// of the fetch mock (the same core as the server's, with the journal in memory).
const KEYS = ['journal-key', 'journal-other-key'];
const base = 'http://docproc.test';
const mock = createDocprocFetch({ baseUrl: base, apiKeys: KEYS, processingDelayMs: 0, journalSize: 5 });
const as = (key: string) => ({ headers: { 'x-api-key': key } });
const pdf = await readFile(fixturePath('text.pdf'));

async function upload(field: string, key = KEYS[0]!): Promise<Response> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(pdf)]), 'report.pdf');
  return mock(`${base}/api/v1/documents/upload_files`, { method: 'POST', body: form, ...as(key) });
}
const journalOf = async (query = '', key = KEYS[0]!) => mock(`${base}/_mock/requests${query}`, as(key));

beforeEach(async () => {
  await mock.controls.reset();
});
afterAll(async () => {
  await mock.idle();
  await mock.close();
});

describe('the request journal', () => {
  it('shows a failing request with its problem code, status, path and request id, newest first', async () => {
    const failed = await mock(`${base}/api/v1/documents/get_document/abc`, as(KEYS[0]!));
    await mock(`${base}/api/v1/documents/get_documents?page=2`, as(KEYS[0]!));
    const [listed, read] = await mock.controls.requests({ operation: undefined });
    expect(listed).toMatchObject({ method: 'GET', path: '/api/v1/documents/get_documents', query: { page: '2' }, status: 200, code: null });
    expect(read).toMatchObject({
      operation: 'getDocument',
      status: 400,
      code: 'invalid_request',
      request_id: failed.headers.get('x-request-id'),
    });
    expect(read!.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("names an upload's parts by field, filename and size, never its bytes", async () => {
    expect((await upload('files[]')).status).toBe(202);
    expect((await upload('file')).status).toBe(400);
    const [refused, accepted] = await mock.controls.requests();
    expect(accepted!.parts).toEqual([{ name: 'files[]', filename: 'report.pdf', size: pdf.length }]);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request', parts: [] });
    expect(refused!.detail).toContain('"file"');
    expect(JSON.stringify(await (await journalOf()).json())).not.toContain('%PDF');
  });

  it('never shows a key, even one sent in the query by mistake', async () => {
    await mock(`${base}/api/v1/documents/get_documents?api_key=${KEYS[0]}&page=1`, as(KEYS[0]!));
    const text = await (await journalOf()).text();
    expect(text).not.toContain(KEYS[0]);
    expect(((await mock.controls.requests())[0]!.query as Record<string, string>).api_key).toBe('[REDACTED]');
  });

  it("never shows another tenant's request", async () => {
    await mock(`${base}/api/v1/documents/get_document/999999`, as(KEYS[1]!));
    // Each tenant's journal starts with its reset (beforeEach).
    expect((await mock.controls.requests({}, { apiKey: KEYS[0] })).map((r) => r.path)).toEqual(['/_mock/reset']);
    expect((await mock.controls.requests({}, { apiKey: KEYS[1] })).map((r) => r.code)).toEqual(['not_found', null]);
  });

  it.each([
    ['an exact status', { status: 404 }, ['not_found']],
    ['a class of statuses', { status: '4xx' as const }, ['not_found', 'invalid_request']],
    ['an operation', { operation: 'listDocuments' as const }, [null]],
  ])('filters by %s', async (_, filter, codes) => {
    await mock(`${base}/api/v1/documents/get_document/abc`, as(KEYS[0]!));
    await mock(`${base}/api/v1/documents/get_documents`, as(KEYS[0]!));
    await mock(`${base}/api/v1/documents/get_document/999999`, as(KEYS[0]!));
    expect((await mock.controls.requests(filter)).map((r) => r.code)).toEqual(codes);
  });

  it('refuses an unknown filter with a 400 problem naming it', async () => {
    const res = await journalOf('?stauts=404');
    expect(res.status).toBe(400);
    expect((await res.json()) as unknown).toMatchObject({ code: 'invalid_request', errors: [{ in: 'query', name: 'stauts' }] });
  });

  it('keeps only the last journalSize requests, and is not filled by reading it', async () => {
    for (let page = 1; page <= 7; page++) await mock(`${base}/api/v1/documents/get_documents?page=${page}`, as(KEYS[0]!));
    await journalOf();
    const pages = (await mock.controls.requests()).map((r) => (r.query as Record<string, string>).page);
    expect(pages).toEqual(['7', '6', '5', '4', '3']);
  });

  it('is cleared by a reset (the reset is then its only entry)', async () => {
    await mock(`${base}/api/v1/documents/get_documents`, as(KEYS[0]!));
    await mock.controls.reset({ apiKey: KEYS[0] });
    expect((await mock.controls.requests()).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /_mock/reset']);
  });

  it('reads as a HAR 1.2 log for browser devtools', async () => {
    await upload('files[]');
    await mock(`${base}/api/v1/documents/get_document/abc?x=1`, as(KEYS[0]!));
    const { log } = (await (await journalOf('?format=har')).json()) as {
      log: { version: string; entries: Array<{ request: Record<string, unknown>; response: Record<string, unknown>; _requestId: string }> };
    };
    expect(log.version).toBe('1.2');
    const [read, sent] = log.entries;
    expect(read!.request).toMatchObject({ method: 'GET', url: expect.stringMatching(/\/api\/v1\/documents\/get_document\/abc\?x=1$/) });
    expect(read!.response).toMatchObject({ status: 400, content: { mimeType: 'application/problem+json' } });
    expect(sent!.request).toMatchObject({ postData: { params: [{ name: 'files[]', fileName: 'report.pdf' }] }, bodySize: pdf.length });
  });
});
