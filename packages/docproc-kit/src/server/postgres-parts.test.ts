import { stagedBytes } from '@docproc-kit/reference/http/upload/staged-file.js';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { type RunningReferenceServer, startReferenceInProcess, until } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// Two replicas of the reference service in this process (each its own pool, queue and caches) on one
// database: what one replica's clients change, the other's see.
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});
const servers: RunningReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function replicas(count: number): Promise<RunningReferenceServer[]> {
  const databaseUrl = await cluster.createDatabase();
  const started: RunningReferenceServer[] = [];
  for (let i = 0; i < count; i++) {
    // Stranded documents looked for every 200 ms, not every 10 s: the test waits for one sweep.
    const server = await startReferenceInProcess({ databaseUrl, processingDelayMs: 50, strandedSweepMs: 200 });
    servers.push(server);
    started.push(server);
  }
  return started;
}
const send = (server: RunningReferenceServer, path: string, init: RequestInit = {}) =>
  server.fetch(`${server.baseUrl}${path}`, { ...init, headers: { 'x-api-key': server.apiKeys[0]!, ...init.headers } });
const json = (body: unknown) => ({ method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('replicas of the reference service on one PostgreSQL', () => {
  it('apply settings, faults and resets made through another replica (told by NOTIFY, within a moment)', async () => {
    const [one, two] = await replicas(2);
    // Both replicas share this process's event loop here: the other's notification is read on its next turn.
    const soon = (check: () => Promise<boolean>) => until(check, 2_000, 5);
    const settingsOf = async (server: RunningReferenceServer) => (await send(server, '/_mock/settings')).json();
    const faultsOf = async (server: RunningReferenceServer) =>
      (await (await send(server, '/_mock/faults')).json()) as { latency_ms: number };
    expect((await send(one!, '/_mock/settings', json({ processing_delay_ms: 4321 }))).status).toBe(200);
    expect(await soon(async () => (await settingsOf(two!)).processing_delay_ms === 4321)).toBe(true);
    expect((await send(two!, '/_mock/faults', json({ latency_ms: 5 }))).status).toBe(200);
    expect(await soon(async () => (await faultsOf(one!)).latency_ms === 5)).toBe(true);
    expect((await send(one!, '/_mock/reset', { method: 'POST' })).status).toBe(200);
    expect(await soon(async () => (await settingsOf(two!)).processing_delay_ms === 50 && (await faultsOf(two!)).latency_ms === 0)).toBe(
      true,
    );
  });

  it('answer 503 service_unavailable with Retry-After while the database is down, and 200 again once it is back', async () => {
    const [one] = await replicas(1);
    expect((await send(one!, '/api/v1/documents/get_documents')).status).toBe(200);
    await cluster.halt();
    try {
      for (const [path, init] of [
        ['/api/v1/documents/get_documents', {}],
        ['/api/v1/documents/get_document/1', {}],
        ['/api/v1/documents/retry_documents/1', { method: 'POST' }],
        ['/_mock/settings', json({ failure_rate: 0.5 })],
      ] as const) {
        const res = await send(one!, path, init);
        expect({ path, status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({ path, status: 503, retryAfter: '5' });
        expect(await res.json()).toMatchObject({ status: 503, code: 'service_unavailable' });
      }
    } finally {
      await cluster.start();
    }
    expect(await until(async () => (await send(one!, '/api/v1/documents/get_documents')).status === 200, 15_000, 200)).toBe(true);
  }, 40_000);

  it('answer a reset the database could not take 503, having changed nothing: documents, settings and faults stay', async () => {
    const [one] = await replicas(1);
    const post = (path: string, body: unknown) => send(one!, path, { ...json(body), method: 'POST' });
    expect((await post('/_mock/seed', { documents: [{ status: 'completed', count: 3 }] })).status).toBe(201);
    expect((await send(one!, '/_mock/settings', json({ processing_delay_ms: 4321 }))).status).toBe(200);
    expect((await send(one!, '/_mock/faults', json({ latency_ms: 5 }))).status).toBe(200);
    await cluster.halt();
    try {
      const res = await send(one!, '/_mock/reset', { method: 'POST' });
      expect(res.status).toBe(503);
      expect((await res.json()).detail).toMatch(/nothing was changed/);
    } finally {
      await cluster.start();
    }
    const total = async () => (await (await send(one!, '/api/v1/documents/get_documents')).json()).pagination?.total;
    expect(await until(async () => (await total()) === 3, 15_000, 200)).toBe(true);
    expect((await (await send(one!, '/_mock/settings')).json()).processing_delay_ms).toBe(4321);
    expect((await (await send(one!, '/_mock/faults')).json()).latency_ms).toBe(5);
    const reset = await (await send(one!, '/_mock/reset', { method: 'POST' })).json();
    expect(reset).toMatchObject({ deleted_documents: 3, settings: { processing_delay_ms: 50 }, faults: { latency_ms: 0 } });
    expect(await total()).toBe(0);
  }, 60_000);

  it('tell every replica of changes again once the database came back (their listeners reconnect and reload)', async () => {
    const [one, two] = await replicas(2);
    await cluster.halt();
    await cluster.start();
    // The first change after the outage may go through before the other's listener is back: it reloads then.
    expect(await until(async () => (await send(one!, '/_mock/settings', json({ failure_rate: 0.25 }))).status === 200, 15_000, 200)).toBe(
      true,
    );
    const rate = async () => ((await (await send(two!, '/_mock/settings')).json()) as { failure_rate: number }).failure_rate;
    expect(await until(async () => (await rate()) === 0.25, 15_000, 100)).toBe(true);
  }, 40_000);

  it('process a document whose replica died between storing it and queueing its run', async () => {
    const [one] = await replicas(1);
    const tenant = 'stranded-tenant';
    // Stored as an upload stores it, and never queued.
    const [doc] = await one!.service.store.insert(
      [
        {
          tenant,
          filename: 'stranded.pdf',
          content_type: 'application/pdf',
          size_bytes: 8,
          file: stagedBytes(new TextEncoder().encode('%PDF-1.4')),
        },
      ],
      new Date().toISOString(),
    );
    expect(await until(async () => (await one!.service.store.byId(doc!.id))?.status !== 'processing', 30_000, 200)).toBe(true);
  }, 40_000);
});
