import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { docprocArgs, type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// `docproc serve --database-url` as processes: start-up refusals, replicas starting at once, one service
// whichever replica answers. (Three replicas behind nginx, a replica killed, the database stopped: the
// slow tier's test/replicas.)
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const KEY = 'docproc-dev-key';
let cluster: PostgresCluster;
let dataDir: string;
const running: RunningCli[] = [];

beforeAll(async () => {
  cluster = await startPostgres();
  dataDir = await mkdtemp(join(tmpdir(), 'docproc-serve-db-'));
}, 60_000);
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop('SIGKILL')));
});
afterAll(async () => {
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const serve = async (url: string, name: string) => {
  const cli = await startCli(['serve', '--database-url', url, '--data-dir', join(dataDir, name), '--processing-delay-ms', '100'], {
    readyPath: '/openapi.json',
    timeoutMs: 60_000,
  });
  running.push(cli);
  return cli;
};
function serveSync(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, docprocArgs(['serve', '--port', '0', '--data-dir', join(dataDir, 'sync'), ...args]), {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
const call = (cli: RunningCli, path: string, init: RequestInit = {}) =>
  fetch(`${cli.baseUrl}${path}`, { ...init, headers: { 'x-api-key': KEY, ...init.headers } });

describe('docproc serve --database-url', () => {
  it('is listed in --help with its environment variable, beside --run-lease-ms', () => {
    const { status, output } = serveSync(['--help']);
    expect(status).toBe(0);
    const flat = output.replace(/\s+/g, ' ');
    expect(flat).toContain('--database-url');
    expect(flat).toContain('DOCPROC_DATABASE_URL');
    expect(flat).toContain('--run-lease-ms');
    expect(flat).toContain('DOCPROC_RUN_LEASE_MS');
  });

  it.each([
    ['the option', (url: string) => ({ args: ['--database-url', url], env: {} })],
    ['DOCPROC_DATABASE_URL', (url: string) => ({ args: [], env: { DOCPROC_DATABASE_URL: url } })],
  ])('given by %s, refuses an unreachable database with exit 2, naming host and database but never the password', (_, given) => {
    const { args, env } = given('postgres://sandbox:s3cret-Pa55@127.0.0.1:1/docproc_shared');
    const { status, output } = serveSync([...args, '--log-level', 'debug'], env);
    expect(status).toBe(2);
    expect(output).toContain('127.0.0.1:1/docproc_shared');
    expect(output).not.toContain('s3cret-Pa55');
  });

  it('names the database as the store in its start-up banner, never a data dir', async () => {
    const url = await cluster.createDatabase();
    const cli = await serve(url, 'banner');
    const { hostname, port, pathname } = new URL(url);
    expect(cli.output()).toContain(`  store          PostgreSQL ${hostname}:${port}${pathname}`);
    expect(cli.output()).not.toContain('data dir');
  });

  it('refuses with exit 2 a database whose schema is newer than the code, and changes nothing in it', async () => {
    const url = await cluster.createDatabase();
    const first = await serve(url, 'newer');
    await first.stop('SIGTERM');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("INSERT INTO docproc.pgmigrations (name, run_on) VALUES ('9999999999999_from_the_future', now())");
      const { status, output } = serveSync(['--database-url', url]);
      expect(status).toBe(2);
      expect(output).toMatch(/newer schema.*9999999999999_from_the_future/);
      expect((await client.query('SELECT count(*)::int AS n FROM docproc.pgmigrations')).rows[0].n).toBe(4); // ours and the one from the future: nothing added
    } finally {
      await client.end();
    }
  });

  it('starts replicas at once on a new database, which migrate it once and then act as one service', async () => {
    const url = await cluster.createDatabase();
    const [one, two] = await Promise.all([serve(url, 'one'), serve(url, 'two')]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const migrations = await client.query('SELECT name FROM docproc.pgmigrations');
      expect(migrations.rows.map((r) => r.name).sort()).toEqual([
        '1763971200000_documents',
        '1763971200001_run_fairness',
        '1763971200002_request_journal',
      ]);
    } finally {
      await client.end();
    }
    // Uploaded through one, found by its content through the other once processed.
    const form = new FormData();
    form.append('files[]', new Blob([new Uint8Array(await readFile(fixturePath('text.pdf')))]), 'text.pdf');
    const uploaded = await call(one!, '/api/v1/documents/upload_files', { method: 'POST', body: form });
    expect(uploaded.status).toBe(202);
    const id = ((await uploaded.json()) as { documents: Array<{ document_id: number }> }).documents[0]!.document_id;
    const deadline = Date.now() + 30_000;
    let found: { pagination: { total: number }; documents: Array<{ document_id: number }> } | undefined;
    while (Date.now() < deadline) {
      found = (await (await call(two!, '/api/v1/documents/get_documents?search=PELICAN')).json()) as typeof found;
      if (found!.pagination.total === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(found!.documents.map((d) => d.document_id)).toEqual([id]);
    // A fault injected through one replica is applied by the other.
    const injected = await call(two!, '/_mock/faults', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errors: { getDocument: { rate: 1, status: 503, retry_after_s: 7 } } }),
    });
    expect(injected.status).toBe(200);
    const faulted = await call(one!, `/api/v1/documents/get_document/${id}`);
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get('retry-after')).toBe('7');
    expect((await call(one!, '/_mock/reset', { method: 'POST' })).status).toBe(200);
    expect((await call(two!, `/api/v1/documents/get_document/${id}`)).status).toBe(404);
  });
});
