import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type Balancer, startNginx } from '@docproc-kit/test-support/nginx.js';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { promtoolCheck } from '@docproc-kit/test-support/promtool.js';
import { until } from '@docproc-kit/test-support/reference-server.js';
import { checksNotPassed, fullProfileArgs, runSuite } from '@docproc-kit/test-support/run-suite.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Three `docproc serve` processes on one throwaway PostgreSQL, behind a real nginx balancing round-robin:
// clients see one service, whichever replica answers, through a replica's death and the database's.
const KEYS = ['replicas-key', 'replicas-second-key'];
const MAX_FILE_BYTES = 65_536;
// A run's lease: a killed replica's runs are taken over this long after they started.
const RUN_LEASE_MS = 10_000;

let cluster: PostgresCluster;
let databaseUrl: string;
let balancer: Balancer;
let tcpBalancer: Balancer;
const replicas: RunningCli[] = [];
const scratch: string[] = [];

async function startReplica(): Promise<RunningCli> {
  const dir = await mkdtemp(join(tmpdir(), 'docproc-replica-'));
  scratch.push(dir);
  return startCli(
    [
      'serve',
      '--database-url',
      databaseUrl,
      '--data-dir',
      dir,
      ...KEYS.flatMap((key) => ['--api-key', key]),
      '--processing-delay-ms',
      '200',
      '--max-files',
      '20',
      '--max-file-bytes',
      String(MAX_FILE_BYTES),
      '--run-lease-ms',
      String(RUN_LEASE_MS),
      '--log-format',
      'json',
    ],
    { readyPath: '/openapi.json', timeoutMs: 60_000 },
  );
}

beforeAll(async () => {
  cluster = await startPostgres();
  databaseUrl = await cluster.createDatabase('sandbox');
  // All three at once: the first migrates, the others wait on its lock and find nothing to do.
  replicas.push(...(await Promise.all([startReplica(), startReplica(), startReplica()])));
  balancer = await startNginx(replicas.map((r) => `127.0.0.1:${r.port}`));
  tcpBalancer = await startNginx(
    replicas.map((r) => `127.0.0.1:${r.port}`),
    { layer: 'tcp' },
  );
}, 180_000);

afterAll(async () => {
  await balancer?.stop();
  await tcpBalancer?.stop();
  await Promise.all(replicas.map((r) => r.stop('SIGKILL')));
  await cluster?.stop();
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
}, 60_000);

const headers = { 'x-api-key': KEYS[0]! };
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${balancer.baseUrl}/api/v1${path}`, { ...init, headers: { ...headers, ...init.headers }, signal: AbortSignal.timeout(60_000) });
const fixture = (name: string) => readFile(fixturePath(name));
// One replica directly, not through nginx.
const replica = (i: number, path: string, key = KEYS[0]!) =>
  fetch(`http://127.0.0.1:${replicas[i]!.port}${path}`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(30_000) });
const readyz = async (i: number) => (await replica(i, '/readyz')).status;

async function upload(name = 'text.pdf', bytes?: Buffer): Promise<Response> {
  const form = new FormData();
  form.append('files[]', new Blob([new Uint8Array(bytes ?? (await fixture(name)))]), name);
  return api('/documents/upload_files', { method: 'POST', body: form });
}
async function uploadedIds(res: Response): Promise<number[]> {
  expect(res.status).toBe(202);
  return ((await res.json()) as { documents: Array<{ document_id: number }> }).documents.map((d) => d.document_id);
}
async function documentOf(id: number) {
  const res = await api(`/documents/get_document/${id}`);
  return (await res.json()) as { status: string; attempts: number; content: string | null };
}

// The 'processing run finished' lines every replica logged for a document, by attempt: a result written twice shows as two.
function resultsLogged(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const replica of replicas) {
    for (const line of replica.output().split('\n')) {
      if (!line.includes('"processing run finished"')) continue;
      const { documentId, attempt } = JSON.parse(line) as { documentId: number; attempt: number };
      counts.set(`${documentId}/${attempt}`, (counts.get(`${documentId}/${attempt}`) ?? 0) + 1);
    }
  }
  return counts;
}

// What a failure message needs: the documents still processing, their runs in the queue, and what the replicas complained of.
async function diagnosis(): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const documents = await client.query("SELECT id, attempts, created_at FROM docproc.documents WHERE status = 'processing'");
    const jobs = await client.query(
      "SELECT data, state, retry_count, started_on, start_after FROM docproc_queue.job WHERE state < 'completed' ORDER BY created_on",
    );
    const complaints = replicas.flatMap((r, i) =>
      r
        .output()
        .split('\n')
        .filter((line) => /"level":(40|50|60)/.test(line))
        .slice(-5)
        .map((line) => `replica ${i}: ${line.slice(0, 400)}`),
    );
    return [JSON.stringify(documents.rows), JSON.stringify(jobs.rows), ...complaints].join('\n');
  } finally {
    await client.end();
  }
}

describe('three replicas on one PostgreSQL behind nginx', () => {
  const suite = (baseUrl: string, { strict = true } = {}) =>
    runSuite(fullProfileArgs(baseUrl, { keys: KEYS, maxFileBytes: MAX_FILE_BYTES, requestTimeoutMs: 30_000, strict }), {
      timeoutMs: 280_000,
    });

  it('pass the full conformance suite through nginx balancing connections round-robin', async () => {
    const run = await suite(tcpBalancer.baseUrl);
    const told = `${run.output}\nnginx's error log:\n${tcpBalancer.errors()}`;
    expect(run.code, told).toBe(0);
    expect(checksNotPassed(run), told).toEqual([]);
  }, 300_000);

  it('pass it through nginx balancing request by request, with the answer nginx gives itself a warning naming nginx', async () => {
    // nginx refuses a path with an encoded NUL or with invalid percent-encoding before it reads the headers, so
    // its 400 (a problem, by its config) carries nginx's own X-Request-Id, not the client's: the service never
    // saw that request.
    // Every check passes with each request going to the next replica: what one replica did, the next one shows.
    const run = await suite(balancer.baseUrl, { strict: false });
    const told = `${run.output}\nnginx's error log:\n${balancer.errors()}`;
    expect(run.code, told).toBe(0);
    expect(
      run.report!.checks.flatMap((c) => c.failures.map((f) => `${c.id}: ${f.test}`)),
      told,
    ).toEqual([]);
    expect(run.report!.unattributed).toEqual([]);
    const warnings = run.report!.checks.flatMap((c) => c.warnings.map((w) => `${c.id}: ${w.test}: ${w.message}`));
    expect(warnings.sort(), told).toEqual([
      expect.stringMatching(
        /^response\.answered-by-service: malformed requests > a path id that is not valid percent-encoding .*made by nginx itself/,
      ),
      expect.stringMatching(/^response\.answered-by-service: malformed requests > a path id with an encoded NUL .*made by nginx itself/),
    ]);
  }, 300_000);

  it('give 60 concurrent uploads 60 distinct ids, each readable through any replica', async () => {
    const ids = (await Promise.all(Array.from({ length: 60 }, async () => uploadedIds(await upload())))).flat();
    expect(new Set(ids).size).toBe(60);
    for (const id of ids.slice(0, 6)) expect((await api(`/documents/get_document/${id}`)).status).toBe(200);
  }, 120_000);

  it('accept exactly one of 30 concurrent retries of a completed document', async () => {
    const [id] = await uploadedIds(await upload());
    expect(await until(async () => (await documentOf(id!)).status === 'completed', 30_000)).toBe(true);
    // The accepted retry stays processing longer than the 30 take to be answered (a setting every replica applies).
    const slow = await fetch(`${balancer.baseUrl}/_mock/settings`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ processing_delay_ms: 5_000 }),
    });
    expect(slow.status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 30 }, () => api(`/documents/retry_documents/${id}`, { method: 'POST' })));
    // On a busy machine a replica whose database pool is exhausted answers the documented 503 with
    // Retry-After: that retry was not accepted either. Any other answer, or a second 202, is a defect.
    const statuses = answers.map((r) => (r.status === 503 && r.headers.get('retry-after') ? '503 Retry-After' : r.status));
    expect(
      statuses.filter((s) => s === 202),
      JSON.stringify(statuses),
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s !== 202 && s !== 409 && s !== '503 Retry-After'),
      JSON.stringify(statuses),
    ).toEqual([]);
    expect(statuses.filter((s) => s === 409).length, JSON.stringify(statuses)).toBeGreaterThanOrEqual(25);
    expect(await until(async () => (await documentOf(id!)).status === 'completed', 30_000)).toBe(true);
    expect((await documentOf(id!)).attempts).toBe(2);
    await fetch(`${balancer.baseUrl}/_mock/settings`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ processing_delay_ms: 200 }),
    });
  }, 120_000);

  it("show a frontend's failing request in its tenant's journal on another replica, promptly, and in no other tenant's", async () => {
    const failing = await replica(0, '/api/v1/documents/get_document/abc?api_key=leaked');
    expect(failing.status).toBe(400);
    const requestId = failing.headers.get('x-request-id');
    type Recorded = { request_id: string; status: number; code: string | null; query: Record<string, string> };
    const journal = async (key: string) =>
      ((await (await replica(1, '/_mock/requests?status=4xx', key)).json()) as { requests: Recorded[] }).requests;
    const answered = Date.now();
    expect(await until(async () => (await journal(KEYS[0]!)).some((r) => r.request_id === requestId), 5_000, 50)).toBe(true);
    expect(Date.now() - answered).toBeLessThan(2_000);
    expect((await journal(KEYS[0]!)).find((r) => r.request_id === requestId)).toMatchObject({
      status: 400,
      code: 'invalid_request',
      query: { api_key: '[REDACTED]' },
    });
    expect((await journal(KEYS[1]!)).map((r) => r.request_id)).not.toContain(requestId);
  }, 60_000);

  it("expose metrics promtool accepts on each replica, the database pool's among them", async () => {
    for (const i of [0, 1]) {
      const text = await (await replica(i, '/metrics')).text();
      expect(promtoolCheck(text)).toBe('');
      expect(text).toMatch(/^docproc_db_pool_connections\{state="total"\} \d+$/m);
      expect(text).toMatch(/^docproc_documents\{status="completed"\} \d+$/m);
    }
  }, 60_000);

  it('finish all of 20 documents once each when a replica is SIGKILLed right after their upload', async () => {
    // Scans, so runs are still extracting (OCR) on the replica when it dies.
    const scan = await fixture('scanned.png');
    const ids = (await Promise.all(Array.from({ length: 20 }, async (_, i) => uploadedIds(await upload(`scan-${i}.png`, scan))))).flat();
    replicas[2]!.child.kill('SIGKILL');
    const finished = async () => (await Promise.all(ids.map(documentOf))).every((d) => d.status !== 'processing');
    expect(await until(finished, RUN_LEASE_MS + 90_000, 500), await diagnosis()).toBe(true);
    const documents = await Promise.all(ids.map(documentOf));
    expect(documents.map((d) => `${d.status}/${d.attempts}`)).toEqual(ids.map(() => 'completed/1'));
    const logged = resultsLogged();
    expect(ids.filter((id) => (logged.get(`${id}/1`) ?? 0) > 1)).toEqual([]);
  }, 180_000);

  it('answer 503 with Retry-After while the database is down, in time, and upload again within 30 s of its return', async () => {
    const before = await api('/documents/get_documents?limit=1');
    const { pagination } = (await before.json()) as { pagination: { total: number } };
    expect(await readyz(0)).toBe(200);
    await cluster.halt();
    try {
      // Not ready within a second of the database going away: a balancer stops sending requests there.
      const gone = Date.now();
      expect(await until(async () => (await readyz(0)) === 503, 1_000, 50)).toBe(true);
      expect(Date.now() - gone).toBeLessThan(1_000);
      expect(await readyz(1)).toBe(503);
      for (let i = 0; i < 4; i++) {
        const started = Date.now();
        const res = await upload();
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(((await res.json()) as { code: string }).code).toBe('service_unavailable');
        expect(Date.now() - started).toBeLessThan(15_000);
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    } finally {
      await cluster.start();
    }
    const back = Date.now();
    expect(await until(async () => (await readyz(0)) === 200 && (await readyz(1)) === 200, 30_000, 100)).toBe(true);
    expect(await until(async () => (await upload()).status === 202, 30_000, 500)).toBe(true);
    expect(Date.now() - back).toBeLessThan(30_000);
    // Nothing acknowledged before the outage is lost.
    const after = (await (await api('/documents/get_documents?limit=1')).json()) as { pagination: { total: number } };
    expect(after.pagination.total).toBeGreaterThan(pagination.total);
    // And processing resumed by itself: nothing is left processing.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const processing = async () =>
        Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM docproc.documents WHERE status = 'processing'")).rows[0]!.n);
      expect(await until(async () => (await processing()) === 0, 60_000, 500)).toBe(true);
    } finally {
      await client.end();
    }
  }, 180_000);
});
