import { fixture, type RunningReferenceServer, startReferenceServer, until } from '@docproc-kit/test-support/reference-server.js';
import { canMountTmpfs, mountTmpfs, type Tmpfs } from '@docproc-kit/test-support/tmpfs.js';
import { afterEach, describe, expect, it } from 'vitest';

// The data dir on a tmpfs of its own, remounted read-only mid-way: a request whose write fails
// answers 500 and changes nothing, in memory as on disk; once the disk is back, everything works.
let disk: Tmpfs | undefined;
let server: RunningReferenceServer | undefined;
afterEach(async () => {
  disk?.writable();
  await server?.close();
  await disk?.unmount();
  disk = server = undefined;
});

const start = async () => {
  disk = await mountTmpfs('16m');
  server = await startReferenceServer({ dataDir: disk.dir, processingDelayMs: 50 });
  return server;
};
const call = (path: string, init: RequestInit & { json?: unknown } = {}) => {
  const headers = new Headers(init.headers);
  headers.set('x-api-key', server!.apiKeys[0]!);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  return fetch(server!.baseUrl + path, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
};
const upload = async () => {
  const body = new FormData();
  body.append('files[]', await fixture('text.pdf'), 'text.pdf');
  const res = await call('/api/v1/documents/upload_files', { method: 'POST', body });
  expect(res.status).toBe(202);
  return ((await res.json()) as { documents: Array<{ document_id: number }> }).documents[0]!.document_id;
};
const documentOf = async (id: number) =>
  (await (await call(`/api/v1/documents/get_document/${id}`)).json()) as { status: string; attempts: number; content: string | null };

describe.skipIf(!canMountTmpfs)('writes that fail on a read-only data dir (needs root to mount a tmpfs)', () => {
  it('leave a retry, a forced outcome and a reset without effect, and the document retryable once the disk is back', async () => {
    await start();
    const id = await upload();
    expect(await until(async () => (await documentOf(id)).status === 'completed', 20_000)).toBe(true);

    disk!.readOnly();
    const retry = await call(`/api/v1/documents/retry_documents/${id}`, { method: 'POST' });
    expect(retry.status).toBe(500);
    expect(await retry.json()).toMatchObject({ code: 'internal_error' });
    expect(await documentOf(id)).toMatchObject({ status: 'completed', attempts: 1 });

    const forced = await call(`/_mock/documents/${id}/next-outcome`, { method: 'POST', json: { outcome: 'failed' } });
    expect(forced.status).toBe(500);
    expect((await server!.service.store.byId(id))!.next_outcome).toBeNull();

    const reset = await call('/_mock/reset', { method: 'POST' });
    expect(reset.status).toBe(500);
    const list = (await (await call('/api/v1/documents/get_documents')).json()) as { pagination: { total: number } };
    expect(list.pagination.total).toBe(1);

    disk!.writable();
    const again = await call(`/api/v1/documents/retry_documents/${id}`, { method: 'POST' });
    expect(again.status).toBe(202);
    expect(await until(async () => (await documentOf(id)).status !== 'processing', 20_000)).toBe(true);
    // The forced failure never took effect: the run completed from the file's text.
    expect(await documentOf(id)).toMatchObject({ status: 'completed', attempts: 2, content: expect.stringContaining('PELICAN') });
  }, 60_000);

  it('keep a run whose result cannot be written processing, and finish it once the disk is back', async () => {
    await start();
    await call('/_mock/settings', { method: 'PATCH', json: { processing_delay_ms: 1_000 } });
    const id = await upload();
    disk!.readOnly();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await documentOf(id)).toMatchObject({ status: 'processing', attempts: 1 });
    disk!.writable();
    expect(await until(async () => (await documentOf(id)).status === 'completed', 20_000)).toBe(true);
    expect(await documentOf(id)).toMatchObject({ status: 'completed', attempts: 1, content: expect.stringContaining('PELICAN') });
  }, 60_000);
});
