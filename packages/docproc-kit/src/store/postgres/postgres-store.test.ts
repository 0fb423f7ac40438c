import { stagedBytes } from '@docproc-kit/reference/http/upload/staged-file.js';
import type { DocumentStore, NewDocument } from '@docproc-kit/reference/store/document-store.js';
import { StoreUnavailable } from '@docproc-kit/reference/store/store-unavailable.js';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { openPostgresStore } from './postgres-store.js';
import { likePattern, matchingDocuments } from './records.js';

// What only the PostgreSQL store has (store-contract.test.ts holds it to what every store does): several
// replicas on one database, leases, the trigram index, big files, a database that goes away.
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const NOW = '2024-05-02T09:14:03.120Z';
const LATER = '2024-05-02T09:20:00.000Z';
const file = (name: string, bytes = new TextEncoder().encode(`%PDF-1.7 ${name}`)): NewDocument => ({
  tenant: 'tenant-a',
  filename: name,
  content_type: 'application/pdf',
  size_bytes: bytes.length,
  file: stagedBytes(bytes),
});
/** Stores of `count` replicas on one new database. */
async function replicas(
  count: number,
  options?: Parameters<typeof openPostgresStore>[1],
): Promise<{ url: string; stores: DocumentStore[] }> {
  const url = await cluster.createDatabase();
  const stores: DocumentStore[] = [];
  for (let i = 0; i < count; i++) {
    const store = await openPostgresStore(url, options);
    stores.push(store);
    cleanups.push(() => store.close());
  }
  return { url, stores };
}

describe('the PostgreSQL store shared by replicas', () => {
  it('shares one tenant salt, made once', async () => {
    const { stores } = await replicas(2);
    expect(stores[0]!.tenantSalt).toMatch(/^[0-9a-f]{64}$/);
    expect(stores[1]!.tenantSalt).toBe(stores[0]!.tenantSalt);
  });

  it('gives the same Idempotency-Key claimed on two replicas at once to one of them', async () => {
    const { stores } = await replicas(2);
    for (let round = 0; round < 5; round++) {
      const claims = await Promise.all(stores.map((s) => s.claimKey('tenant-a', `k${round}`, NOW)));
      expect(claims.map((c) => c.kind).sort()).toEqual(['claimed', 'in_use']);
    }
  });

  it('frees a key whose holder died once its lease runs out, and not before while the holder lives', async () => {
    const { stores } = await replicas(2, { keyLeaseMs: 600 });
    const [dying, other] = stores;
    const living = await other!.claimKey('tenant-a', 'alive', NOW);
    expect(living.kind).toBe('claimed');
    expect((await dying!.claimKey('tenant-a', 'dead', NOW)).kind).toBe('claimed');
    // Dies holding it: close() stops the renewals, and nobody releases the claim.
    await dying!.close();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await other!.claimKey('tenant-a', 'dead', NOW)).kind).toBe('claimed');
    // The living holder renewed its lease all along.
    expect((await other!.claimKey('tenant-a', 'alive', NOW)).kind).toBe('in_use');
    if (living.kind === 'claimed') await living.release();
  });

  it('replays an upload remembered through one replica on another', async () => {
    const { stores } = await replicas(2);
    const claim = await stores[0]!.claimKey('tenant-a', 'k', NOW);
    const uploaded = await stores[0]!.insert([file('a.pdf')], NOW, { key: 'k', fingerprint: 'fp', expires_at: LATER });
    if (claim.kind === 'claimed') await claim.release();
    expect(await stores[1]!.claimKey('tenant-a', 'k', NOW)).toEqual({
      kind: 'earlier',
      upload: { fingerprint: 'fp', documents: uploaded },
    });
  });

  it('lets exactly one of 30 concurrent changes through three replicas find the record unchanged', async () => {
    const { stores } = await replicas(3);
    const [doc] = await stores[0]!.insert([file('a.pdf')], NOW);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        stores[i % 3]!.update(doc!.id, (current) =>
          current.attempts > 1 ? undefined : { record: { ...current, attempts: current.attempts + 1 } },
        ),
      ),
    );
    expect(results.filter((r) => r?.changed)).toHaveLength(1);
    expect(await stores[2]!.byId(doc!.id)).toMatchObject({ attempts: 2 });
  });

  it('gives concurrent uploads through replicas distinct, increasing ids, each upload’s in order', async () => {
    const { stores } = await replicas(3);
    const uploads = await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 3]!.insert([file('a.pdf'), file('b.pdf')], NOW)));
    const ids = uploads.flat().map((r) => r.id);
    expect(new Set(ids).size).toBe(60);
    for (const upload of uploads) expect(upload[0]!.id).toBeLessThan(upload[1]!.id);
  });

  it('keeps a 25 MiB file byte for byte', async () => {
    const { stores } = await replicas(1);
    const bytes = new Uint8Array(25 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) % 251;
    const [doc] = await stores[0]!.insert([file('big.pdf', bytes)], NOW);
    const back = await stores[0]!.readFile(doc!.id);
    expect(back.length).toBe(bytes.length);
    expect(Buffer.compare(Buffer.from(back), Buffer.from(bytes))).toBe(0);
  });
});

describe('search in the PostgreSQL store', () => {
  it.each([
    ['50%', ['report-50%.pdf']],
    ['a_b', ['a_b.pdf']],
    ['c\\d', ['c\\d.pdf']],
    ['%', ['report-50%.pdf']],
  ])('takes %j literally: %, _ and \\ are not wildcards', async (term, expected) => {
    const { stores } = await replicas(1);
    for (const name of ['report-50%.pdf', 'report-500.pdf', 'a_b.pdf', 'axb.pdf', 'c\\d.pdf', 'cd.pdf'])
      await stores[0]!.insert([file(name)], NOW);
    const found = await stores[0]!.list('tenant-a', { page: 1, limit: 20, search: term });
    expect(found.documents.map((d) => d.filename)).toEqual(expected);
  });

  it('escapes a LIKE pattern', () => {
    expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });

  it('finds a literal substring of names and texts through the trigram indexes', async () => {
    const url = await cluster.createDatabase();
    const store = await openPostgresStore(url);
    cleanups.push(() => store.close());
    const db = openDatabase(url);
    cleanups.push(() => db.close());
    await db.query(
      `INSERT INTO docproc.documents (id, tenant, filename, content_type, size_bytes, status, attempts, created_at, updated_at, folded_name, content, folded_content)
       SELECT n, 'tenant-a', 'seeded-' || n || '.pdf', 'application/pdf', 1, 'completed', 1, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z',
              'seeded-' || n || '.pdf', t, lower(t)
       FROM generate_series(1, 5000) n, LATERAL (SELECT 'Freight invoice ' || n || CASE WHEN n % 1000 = 0 THEN ' QUETZAL' ELSE '' END AS t) x`,
    );
    await db.query('ANALYZE docproc.documents');
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${matchingDocuments(false)}`, ['tenant-a', likePattern('quetzal')]);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('documents_name_trgm');
    expect(plan).toContain('documents_content_trgm');
    expect((await store.list('tenant-a', { page: 1, limit: 2, search: 'Quetzal' })).total).toBe(5);
  });
});

describe('the PostgreSQL store when its database is gone', () => {
  it('fails fast with StoreUnavailable, and serves again by itself once it is back', async () => {
    const own = await startPostgres();
    cleanups.push(() => own.stop());
    const store = await openPostgresStore(await own.createDatabase());
    cleanups.push(() => store.close());
    await store.insert([file('kept.pdf')], NOW);
    await own.halt();
    const started = Date.now();
    await expect(store.list('tenant-a', { page: 1, limit: 20 })).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(store.insert([file('lost.pdf')], NOW)).rejects.toBeInstanceOf(StoreUnavailable);
    expect(Date.now() - started).toBeLessThan(10_000);
    await own.start();
    const page = await store.list('tenant-a', { page: 1, limit: 20 });
    expect(page.documents.map((d) => d.filename)).toEqual(['kept.pdf']);
  });
});
