import { readFile } from 'node:fs/promises';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocprocClient, type DocprocClient, WaitTimeoutError } from './index.js';

// The client against the real reference server: behaviour that needs state (processing, paging,
// replays) rather than the mock's canned examples.
let server: RunningReferenceServer;
let slow: RunningReferenceServer;
let docproc: DocprocClient;
beforeAll(async () => {
  [server, slow] = await Promise.all([
    startReferenceServer({ processingDelayMs: 50 }),
    startReferenceServer({ processingDelayMs: 60_000 }),
  ]);
  docproc = createDocprocClient({ baseUrl: server.baseUrl, apiKey: 'docproc-dev-key' });
});
afterAll(() => Promise.all([server?.close(), slow?.close()]));

const textPdf = () => readFile(fixturePath('text.pdf'));

describe('the typed client against the reference server', () => {
  it('uploads files whose names are non-ASCII or path-like and gets every name back exactly', async () => {
    const names = ['résumé 日本.pdf', '../../etc/passwd.pdf', 'a/b\\c.pdf', 'emoji 📄 “quoted”.pdf'];
    const bytes = await textPdf();
    const { data, error } = await docproc.uploadDocuments(names.map((name) => ({ name, data: bytes })));
    expect(error).toBeUndefined();
    expect(data!.documents.map((d) => d.filename)).toEqual(names);
  });

  it('waitForDocument polls until processing ends and returns the finished document with its text', async () => {
    const { data } = await docproc.uploadDocuments([{ name: 'wait.pdf', data: await textPdf() }]);
    const { data: done } = await docproc.waitForDocument(data!.documents[0]!.document_id, { timeoutMs: 20_000, initialIntervalMs: 20 });
    expect(done).toMatchObject({ status: 'completed', content: expect.stringContaining('PELICAN') });
  });

  it('waitForDocument rejects with a WaitTimeoutError carrying the last read, and stops on abort', async () => {
    const client = createDocprocClient({ baseUrl: slow.baseUrl, apiKey: 'docproc-dev-key' });
    const { data } = await client.uploadDocuments([{ name: 'slow.pdf', data: await textPdf() }]);
    const id = data!.documents[0]!.document_id;
    const timedOut = await client.waitForDocument(id, { timeoutMs: 300, initialIntervalMs: 50 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(WaitTimeoutError);
    expect((timedOut as WaitTimeoutError).last).toMatchObject({ document_id: id, status: 'processing' });
    const aborted = await client.waitForDocument(id, { signal: AbortSignal.timeout(150) }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('TimeoutError');
  });

  it('iterateDocuments walks every page once, newest first', async () => {
    const tenant = createDocprocClient({ baseUrl: server.baseUrl, apiKey: 'docproc-dev-key' });
    const { data } = await tenant.uploadDocuments(
      Array.from({ length: 5 }, (_, i) => ({ name: `iterate-${i}.pdf`, data: new TextEncoder().encode('%PDF-1.4\n%%EOF\n') })),
    );
    const seen: number[] = [];
    for await (const doc of tenant.iterateDocuments({ limit: 2, search: 'iterate-' })) seen.push(doc.document_id);
    expect(seen).toEqual(data!.documents.map((d) => d.document_id).reverse());
  });

  it('replays an upload sent again with the same idempotencyKey: same ids, nothing new created', async () => {
    const key = `client-test-${Date.now()}`;
    const file = { name: 'idempotent.pdf', data: await textPdf() };
    const first = await docproc.uploadDocuments([file], { idempotencyKey: key });
    const again = await docproc.uploadDocuments([file], { idempotencyKey: key });
    expect(again.data!.documents.map((d) => d.document_id)).toEqual(first.data!.documents.map((d) => d.document_id));
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    const other = await docproc.uploadDocuments([{ ...file, name: 'other.pdf' }], { idempotencyKey: key });
    expect(other.error).toMatchObject({ status: 409, code: 'idempotency_key_reused' });
  });

  it('returns a 404 and a 409 as typed problems', async () => {
    expect((await docproc.getDocument(987_654)).error).toMatchObject({ status: 404, code: 'not_found' });
    const client = createDocprocClient({ baseUrl: slow.baseUrl, apiKey: 'docproc-dev-key' });
    const { data } = await client.uploadDocuments([{ name: 'busy.pdf', data: await textPdf() }]);
    expect((await client.retryDocument(data!.documents[0]!.document_id)).error).toMatchObject({ status: 409, code: 'document_busy' });
  });
});
