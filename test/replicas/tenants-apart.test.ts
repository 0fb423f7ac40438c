import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { percentile } from '@docproc-kit/test-support/statistics.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// One `docproc serve --database-url` process on a throwaway PostgreSQL, two tenants at once: one seeds in
// bulk through the mock controls, the other lists, as teams sharing a sandbox do.
const BULK = 'bulk-team-key';
const BYSTANDER = 'bystander-team-key';
const API = '/api/v1/documents';
let cluster: PostgresCluster;
let dataDir: string;
let server: RunningCli;

beforeAll(async () => {
  cluster = await startPostgres();
  dataDir = await mkdtemp(join(tmpdir(), 'docproc-tenants-'));
  const url = await cluster.createDatabase();
  server = await startCli(
    ['serve', '--database-url', url, '--data-dir', dataDir, '--api-key', BULK, '--api-key', BYSTANDER, '--processing-delay-ms', '100'],
    { readyPath: '/openapi.json', timeoutMs: 60_000 },
  );
}, 120_000);
afterAll(async () => {
  await server?.stop('SIGKILL');
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const call = (key: string, path: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}${path}`, { ...init, headers: { 'x-api-key': key, ...init.headers } });
const seed = (key: string, documents: unknown[]) =>
  call(key, '/_mock/seed', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ documents }) });
const total = async (key: string) => (await (await call(key, `${API}/get_documents`)).json()).pagination.total as number;
const reset = (key: string) => call(key, '/_mock/reset', { method: 'POST' });

// About 12 KB of receipt-like text: a large document's extracted text.
const largeText = (batch: number) =>
  Array.from({ length: 200 }, (_, line) => `Batch ${batch} line ${line}: SOURDOUGH LOAF 4.50 EUR, OAT MILK 1.95 EUR`).join('\n');

// 400 lists of the bystander, four at a time as a UI with a few users polls, some of them searches.
async function bystanderLists(seeding: () => boolean) {
  const answers: number[] = [];
  const latencies: number[] = [];
  let duringSeeds = 0;
  const lane = async (first: number) => {
    for (let i = first; i < 400; i += 4) {
      const query = i % 5 === 0 ? '?search=mine-1' : `?page=${1 + (i % 3)}&limit=10`;
      const started = performance.now();
      const res = await call(BYSTANDER, `${API}/get_documents${query}`);
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      answers.push(res.status);
      if (seeding()) duringSeeds++;
    }
  };
  await Promise.all([0, 1, 2, 3].map(lane));
  return { answers, latencies, duringSeeds };
}

describe('two tenants on one replica with PostgreSQL', () => {
  it("keeps another key's lists at 200 and fast while one key seeds 600 large documents", async () => {
    await reset(BULK);
    expect((await seed(BYSTANDER, [{ filename: 'mine-{n}.pdf', status: 'completed', count: 30 }])).status).toBe(201);
    // The same 400 lists with nobody seeding first: what this machine itself takes, right now.
    const alone = await bystanderLists(() => false);
    let seeding = true;
    const seeds = Promise.all(
      [1, 2, 3].map(async (batch) => {
        const res = await seed(BULK, [{ filename: `bulk-${batch}-{n}.pdf`, status: 'completed', content: largeText(batch), count: 200 }]);
        await res.arrayBuffer();
        return res.status;
      }),
    ).finally(() => {
      seeding = false;
    });
    const beside = await bystanderLists(() => seeding);
    expect(await seeds).toEqual([201, 201, 201]);
    expect(beside.answers.filter((status) => status !== 200)).toEqual([]);
    // The lists ran while the seeds were in progress (otherwise this proves nothing).
    expect(beside.duringSeeds).toBeGreaterThan(200);
    const p99 = { alone: percentile(alone.latencies, 99), beside: percentile(beside.latencies, 99) };
    // Under 250 ms on an idle machine; on a busy one, the seeds add less than 250 ms to what the lists take anyway.
    expect(p99.beside - Math.max(0, p99.alone - 50), JSON.stringify(p99)).toBeLessThan(250);
    expect(await total(BULK)).toBe(600);
    expect(await total(BYSTANDER)).toBe(30);
  }, 240_000);

  it('answers a seed the database cut short 503, having created nothing, so retrying it as told creates each document once', async () => {
    await reset(BULK);
    const pending = seed(BULK, [{ filename: 'cut-{n}.pdf', status: 'completed', content: largeText(9), count: 600 }]);
    // The seed makes 600 PDFs before it writes: the database goes away meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await cluster.halt();
    const cut = await pending;
    await cluster.start();
    expect(cut.status).toBe(503);
    expect((await cut.json()).detail).toMatch(/nothing was changed/);
    const deadline = Date.now() + 30_000;
    let status = 0;
    // The pool reconnects by itself; until it has, the retry is told 503 again, which creates nothing either.
    while (Date.now() < deadline && status !== 201) {
      const retried = await seed(BULK, [{ filename: 'cut-{n}.pdf', status: 'completed', content: largeText(9), count: 600 }]);
      await retried.arrayBuffer();
      status = retried.status;
      if (status === 503) expect(await total(BULK).catch(() => 0)).toBe(0);
    }
    expect(status).toBe(201);
    expect(await total(BULK)).toBe(600);
  }, 240_000);
});
