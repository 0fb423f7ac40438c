import type { JournalEntry } from '@docproc-kit/reference/journal/request-journal.js';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { until } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database.js';
import { migrate } from './migrate.js';
import { createPostgresJournal } from './postgres-journal.js';

// The request journal two replicas share on a real PostgreSQL: written in batches off the request's way,
// seen by the other replica, bounded per tenant, cleared per tenant.
let cluster: PostgresCluster;
let url: string;
const dbs: Database[] = [];
beforeAll(async () => {
  cluster = await startPostgres();
  url = await cluster.createDatabase();
  dbs.push(openDatabase(url), openDatabase(url));
  await migrate(dbs[0]!, url, { info: () => {} });
}, 60_000);
afterAll(async () => {
  for (const db of dbs) await db.close();
  await cluster?.stop();
});

let clock = 1_700_000_000_000;
const entry = (path: string): JournalEntry => ({
  request_id: `id-${path}`,
  started_ms: clock++,
  method: 'GET',
  path,
  query: {},
  operation: 'listDocuments',
  status: 200,
  code: null,
  detail: null,
  duration_ms: 1.5,
  parts: [],
});

describe('the request journal on PostgreSQL', () => {
  it("shows what one replica recorded on the other, newest first, bounded per tenant, never another tenant's", async () => {
    const [a, b] = dbs.map((db) => createPostgresJournal(db, { capacity: 3 }));
    try {
      for (let i = 1; i <= 5; i++) a!.record('tenant-1', entry(`/one/${i}`));
      b!.record('tenant-2', entry('/two/1'));
      const paths = async (tenant: string) => (await b!.list(tenant)).map((e) => e.path);
      expect(await until(async () => (await paths('tenant-1')).length === 3, 5_000, 50)).toBe(true);
      expect(await paths('tenant-1')).toEqual(['/one/5', '/one/4', '/one/3']);
      expect(await paths('tenant-2')).toEqual(['/two/1']);
      const { rows } = await dbs[0]!.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM docproc.request_journal WHERE tenant = 'tenant-1'",
      );
      expect(rows[0]!.n).toBe(3);
    } finally {
      await a!.close();
      await b!.close();
    }
  });

  it("clears one tenant's entries, those still waiting to be written too, and no other's", async () => {
    const [a, b] = dbs.map((db) => createPostgresJournal(db, { capacity: 10 }));
    try {
      a!.record('tenant-3', entry('/three/1'));
      a!.record('tenant-4', entry('/four/1'));
      await a!.list('tenant-3');
      a!.record('tenant-3', entry('/three/2'));
      await b!.clear('tenant-3');
      await a!.clear('tenant-3');
      expect(await b!.list('tenant-3')).toEqual([]);
      expect((await b!.list('tenant-4')).map((e) => e.path)).toEqual(['/four/1']);
    } finally {
      await a!.close();
      await b!.close();
    }
  });

  it('keeps journaling after a request that carried a NUL (jsonb holds none): the NUL is stored as U+FFFD', async () => {
    const [a, b] = dbs.map((db) => createPostgresJournal(db, { capacity: 10 }));
    try {
      a!.record('tenant-5', { ...entry('/five/1'), query: { search: 'a\0b', 'odd\0name': '1' }, status: 400 });
      a!.record('tenant-5', entry('/five/2'));
      expect(await until(async () => (await b!.list('tenant-5')).length === 2, 5_000, 50)).toBe(true);
      const [later, nul] = await b!.list('tenant-5');
      expect(later!.path).toBe('/five/2');
      expect(nul!.query).toEqual({ search: 'a\uFFFDb', 'odd\uFFFDname': '1' });
    } finally {
      await a!.close();
      await b!.close();
    }
  });
});
