import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocprocClient } from '@docproc-kit/client';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { fixture, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A bulk-import script's burst: `Promise.all` over `fetch` of 200 uploads from one address, each on a
// connection of its own (Node's fetch opens as many per origin as it is asked for). Every request that
// reaches the server is answered: within the connection caps it is stored, beyond them it is a 503
// with Retry-After that the typed client honours.
const BURST = 200;
const KEY = 'docproc-dev-key';
let pdf: Blob;
beforeAll(async () => {
  pdf = await fixture('text.pdf');
});

/** One upload of the text.pdf fixture as `burst-<i>.pdf`: its status and the id it was given. */
async function upload(baseUrl: string, i: number): Promise<{ status: number; id?: number }> {
  const form = new FormData();
  form.append('files[]', pdf, `burst-${i}.pdf`);
  const response = await fetch(`${baseUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: { 'x-api-key': KEY }, body: form });
  const body = (await response.json()) as { documents?: Array<{ document_id: number }> };
  return { status: response.status, id: body.documents?.[0]?.document_id };
}

/** How many documents the server lists. */
async function listed(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/documents/get_documents?limit=1`, { headers: { 'x-api-key': KEY } });
  return ((await response.json()) as { pagination: { total: number } }).pagination.total;
}

describe(`${BURST} concurrent uploads from one address to \`docproc serve\` with its default limits`, () => {
  let dataDir: string;
  let server: RunningCli;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'docproc-burst-'));
    server = await startCli(['serve', '--data-dir', dataDir, '--log-level', 'silent'], { readyPath: '/openapi.json' });
  }, 60_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('are all stored, with distinct ids', async () => {
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: BURST }, (_, i) => upload(server.baseUrl, i)));
    console.log(`burst: ${BURST} uploads by plain fetch answered in ${Date.now() - started} ms`);
    expect(results.map((r) => r.status)).toEqual(Array(BURST).fill(202));
    expect(new Set(results.map((r) => r.id)).size).toBe(BURST);
    expect(await listed(server.baseUrl)).toBe(BURST);
  }, 120_000);
});

describe(`${BURST} concurrent uploads from one address beyond a cap of 20 connections per address`, () => {
  it('are answered 503 with Retry-After beyond the cap, never cut, and the typed client retrying stores all of them once', async () => {
    const server = await startReferenceServer({ maxConnectionsPerAddress: 20 });
    try {
      const statuses: Array<number | string> = [];
      const counting: typeof fetch = async (input, init) => {
        const response = await fetch(input, init).catch((error: Error) => {
          statuses.push(`cut: ${(error.cause as Error | undefined)?.message ?? error.message}`);
          throw error;
        });
        statuses.push(response.status);
        if (response.status === 503) expect(response.headers.get('retry-after')).toBe('1');
        return response;
      };
      const client = createDocprocClient({ baseUrl: server.baseUrl, apiKey: KEY, fetch: counting, retry: { attempts: 20 } });
      const started = Date.now();
      const results = await Promise.all(
        Array.from({ length: BURST }, (_, i) => client.uploadDocuments([{ name: `burst-${i}.pdf`, data: pdf, type: 'application/pdf' }])),
      );
      const refused = statuses.filter((s) => s === 503).length;
      console.log(`burst beyond the cap: ${refused} answers 503, all ${BURST} stored in ${Date.now() - started} ms`);
      expect(results.map((r) => r.response.status)).toEqual(Array(BURST).fill(202));
      expect(new Set(results.map((r) => r.data!.documents[0]!.document_id)).size).toBe(BURST);
      expect(refused).toBeGreaterThan(0);
      expect(statuses.filter((s) => s !== 503 && s !== 202)).toEqual([]);
      expect(await listed(server.baseUrl)).toBe(BURST);
    } finally {
      await server.close();
    }
  }, 180_000);
});
