import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { openLowdbStore } from 'docproc-kit/store/lowdb/lowdb-store.js';
import { openPostgresStore } from 'docproc-kit/store/postgres/postgres-store.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StagedFile, stagedBytes } from '../http/upload/staged-file.js';
import type { DocumentRecord } from '../model.js';
import type { DocumentStore, NewDocument } from './document-store.js';
import { createMemoryStore } from './memory/memory-store.js';

// Every adapter of the store port behaves the same: what the service relies on, said once and held
// against each. Durability and start-up checks of one adapter are its own tests (docproc-kit's store/lowdb/lowdb-store.test.ts).
interface Adapter {
  name: string;
  open(): Promise<DocumentStore>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// One throwaway PostgreSQL cluster for the file, a new database for each store.
let cluster: PostgresCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

const ADAPTERS: Adapter[] = [
  { name: 'memory', open: async () => createMemoryStore() },
  {
    name: 'lowdb',
    async open() {
      const dir = await mkdtemp(join(tmpdir(), 'docproc-store-contract-'));
      const store = await openLowdbStore(dir);
      cleanups.push(async () => {
        await store.close();
        await rm(dir, { recursive: true, force: true });
      });
      return store;
    },
  },
  {
    name: 'postgres',
    async open() {
      const store = await openPostgresStore(await cluster!.createDatabase());
      cleanups.push(() => store.close());
      return store;
    },
  },
];

const NOW = '2024-05-02T09:14:03.120Z';
const LATER = '2024-05-02T09:20:00.000Z';
const pdf = (name: string) => new TextEncoder().encode(`%PDF-1.7 ${name}`);
const file = (name: string, tenant = 'tenant-a', staged: StagedFile = stagedBytes(pdf(name))): NewDocument => ({
  tenant,
  filename: name,
  content_type: 'application/pdf',
  size_bytes: staged.size,
  file: staged,
});
const failing = (): StagedFile & { discarded: boolean } => {
  const staged = {
    size: 3,
    discarded: false,
    bytes: () => Promise.reject(new Error('the disk is gone')),
    async discard() {
      staged.discarded = true;
    },
  };
  return staged;
};
const ids = (records: DocumentRecord[]) => records.map((r) => r.id);
const completed = (store: DocumentStore, record: DocumentRecord, text: string, at = LATER) =>
  store.update(record.id, (current) => ({ record: { ...current, status: 'completed', processed_at: at, updated_at: at }, text }));

describe.each(ADAPTERS)('the $name store', (adapter) => {
  describe('inserting', () => {
    it('gives each file a processing record, ids from 1 in order, and keeps its bytes', async () => {
      const store = await adapter.open();
      const records = await store.insert([file('a.pdf'), file('b.pdf')], NOW);
      expect(records).toEqual([
        expect.objectContaining({
          id: 1,
          filename: 'a.pdf',
          status: 'processing',
          attempts: 1,
          error: null,
          created_at: NOW,
          processed_at: null,
        }),
        expect.objectContaining({ id: 2, filename: 'b.pdf', status: 'processing', updated_at: NOW }),
      ]);
      expect(new TextDecoder().decode(await store.readFile(2))).toBe('%PDF-1.7 b.pdf');
    });

    it('never hands an id out twice: not to concurrent uploads, not after a failed insert or a reset', async () => {
      const store = await adapter.open();
      const concurrent = await Promise.all(Array.from({ length: 10 }, (_, i) => store.insert([file(`${i}.pdf`)], NOW)));
      expect(new Set(concurrent.flat().map((r) => r.id)).size).toBe(10);
      const broken = failing();
      await expect(store.insert([file('x.pdf'), file('gone.pdf', 'tenant-a', broken)], NOW)).rejects.toThrow();
      await store.removeTenant('tenant-a');
      const [next] = await store.insert([file('c.pdf')], NOW);
      expect(next!.id).toBe(13);
    });

    it('is all or nothing: a file that cannot be taken leaves no record, no key and no staged file', async () => {
      const store = await adapter.open();
      const good = file('good.pdf');
      const broken = failing();
      const claim = await store.claimKey('tenant-a', 'k', NOW);
      await expect(
        store.insert([good, file('bad.pdf', 'tenant-a', broken)], NOW, { key: 'k', fingerprint: 'fp', expires_at: LATER }),
      ).rejects.toThrow();
      expect(broken.discarded).toBe(true);
      expect((await store.list('tenant-a', { page: 1, limit: 20 })).total).toBe(0);
      expect(await store.byId(1)).toBeUndefined();
      if (claim.kind === 'claimed') await claim.release();
      expect((await store.claimKey('tenant-a', 'k', NOW)).kind).toBe('claimed');
    });

    it('creates seeded documents in their states with their texts, found and counted as such', async () => {
      const store = await adapter.open();
      const state = (status: DocumentRecord['status'], extra: Partial<NewDocument['state']> = {}) => ({
        status,
        error: null,
        created_at: NOW,
        updated_at: LATER,
        processed_at: status === 'processing' ? null : LATER,
        ...extra,
      });
      const error = { code: 'unreadable_document' as const, message: 'Seeded.' };
      const [done, broken, pending] = await store.insert(
        [
          { ...file('done.pdf'), state: state('completed', { text: 'Sourdough 4.50' }) },
          { ...file('broken.pdf'), state: state('failed', { error }) },
          { ...file('pending.pdf'), state: state('processing', { updated_at: NOW }) },
        ],
        NOW,
      );
      expect(done).toMatchObject({ status: 'completed', error: null, created_at: NOW, updated_at: LATER, processed_at: LATER });
      expect(broken).toMatchObject({ status: 'failed', error, processed_at: LATER });
      expect(pending).toMatchObject({ status: 'processing', processed_at: null });
      expect(await store.get('tenant-a', done!.id)).toEqual(done);
      expect(await store.content(done!)).toBe('Sourdough 4.50');
      expect(await store.content(broken!)).toBeNull();
      expect(ids((await store.list('tenant-a', { page: 1, limit: 20, search: 'SOURDOUGH' })).documents)).toEqual([done!.id]);
      expect((await store.list('tenant-a', { page: 1, limit: 20, status: 'failed' })).total).toBe(1);
      expect(ids(await store.inStatus('processing'))).toEqual([pending!.id]);
    });

    it('creates a seed of hundreds of documents with long texts all at once, or none of them', async () => {
      const store = await adapter.open();
      const text = (i: number) => `${i} `.repeat(4000);
      const seed = Array.from({ length: 300 }, (_, i) => ({
        ...file(`seed-${i}.pdf`),
        state: { status: 'completed' as const, error: null, created_at: NOW, updated_at: NOW, processed_at: NOW, text: text(i) },
      }));
      const broken = failing();
      await expect(store.insert([...seed.slice(0, 299), { ...file('bad.pdf', 'tenant-a', broken) }], NOW)).rejects.toThrow();
      expect((await store.list('tenant-a', { page: 1, limit: 20 })).total).toBe(0);
      const fresh = seed.map((s) => ({ ...s, file: stagedBytes(pdf(s.filename)) }));
      const records = await store.insert(fresh, NOW);
      expect((await store.list('tenant-a', { page: 1, limit: 20, status: 'completed' })).total).toBe(300);
      expect(await store.content(records[299]!)).toBe(text(299));
    });
  });

  describe('reading', () => {
    it('hides a tenant’s documents from every other tenant', async () => {
      const store = await adapter.open();
      const [mine] = await store.insert([file('mine.pdf', 'tenant-a')], NOW);
      expect(await store.get('tenant-a', mine!.id)).toMatchObject({ filename: 'mine.pdf' });
      expect(await store.get('tenant-b', mine!.id)).toBeUndefined();
      expect(await store.list('tenant-b', { page: 1, limit: 20 })).toEqual({ documents: [], total: 0 });
      expect(await store.byId(mine!.id)).toMatchObject({ tenant: 'tenant-a' });
    });

    it('gives the text of completed documents only', async () => {
      const store = await adapter.open();
      const [doc] = await store.insert([file('a.pdf')], NOW);
      expect(await store.content(doc!)).toBeNull();
      const { record } = (await completed(store, doc!, 'PELICAN'))!;
      expect(await store.content(record)).toBe('PELICAN');
    });

    it('hands out records that never change under their holder', async () => {
      const store = await adapter.open();
      const [doc] = await store.insert([file('a.pdf')], NOW);
      const held = await store.get('tenant-a', doc!.id);
      await completed(store, doc!, 'TEXT');
      expect(held).toMatchObject({ status: 'processing', processed_at: null });
      expect(Object.isFrozen(held) || held !== (await store.get('tenant-a', doc!.id))).toBe(true);
    });

    it('finds documents by status', async () => {
      const store = await adapter.open();
      const [a] = await store.insert([file('a.pdf'), file('b.pdf')], NOW);
      await completed(store, a!, 'A');
      expect(ids(await store.inStatus('processing'))).toEqual([2]);
      expect(ids(await store.inStatus('completed'))).toEqual([1]);
    });
  });

  describe('listing', () => {
    // Five documents of tenant-a, uploaded a second apart; odd ids completed with text.
    async function five(store: DocumentStore) {
      const texts = ['', 'receipt PELICAN', '', 'Straße 42', ''];
      const names = ['scan.png', 'a.pdf', 'invoice-1.pdf', 'b.pdf', 'İnvoice-2.pdf'];
      for (const [i, name] of names.entries()) {
        const [doc] = await store.insert([file(name)], `2024-05-02T09:14:0${i}.000Z`);
        if (i % 2 === 1) await completed(store, doc!, texts[i]!);
      }
      await store.insert([file('other-tenant.pdf', 'tenant-b')], NOW);
    }

    it.each([
      { query: { page: 1, limit: 2 }, expected: [5, 4], total: 5 },
      { query: { page: 3, limit: 2 }, expected: [1], total: 5 },
      { query: { page: 4, limit: 2 }, expected: [], total: 5 },
      { query: { page: 1, limit: 10, status: 'completed' as const }, expected: [4, 2], total: 2 },
      { query: { page: 2, limit: 1, status: 'processing' as const }, expected: [3], total: 3 },
      { query: { page: 1, limit: 10, search: 'INVOICE' }, expected: [5, 3], total: 2 },
      { query: { page: 1, limit: 10, search: 'pelican' }, expected: [2], total: 1 },
      { query: { page: 1, limit: 10, search: 'strasse' }, expected: [4], total: 1 },
      { query: { page: 1, limit: 10, search: 'pelican', status: 'processing' as const }, expected: [], total: 0 },
      { query: { page: 1, limit: 10, search: '%' }, expected: [], total: 0 },
    ])('pages $query to $expected of $total, newest first', async ({ query, expected, total }) => {
      const store = await adapter.open();
      await five(store);
      const page = await store.list('tenant-a', query);
      expect({ ids: ids(page.documents), total: page.total }).toEqual({ ids: expected, total });
    });

    it('orders documents uploaded at the same instant by id, newest first', async () => {
      const store = await adapter.open();
      await store.insert([file('a.pdf'), file('b.pdf'), file('c.pdf')], NOW);
      expect(ids((await store.list('tenant-a', { page: 1, limit: 10 })).documents)).toEqual([3, 2, 1]);
    });

    it('searches the text of completed documents only: a retried document is found by its name until it completes again', async () => {
      const store = await adapter.open();
      const [doc] = await store.insert([file('a.pdf')], NOW);
      await completed(store, doc!, 'PELICAN');
      await store.update(doc!.id, (current) => ({ record: { ...current, status: 'processing', attempts: 2, processed_at: null } }));
      expect((await store.list('tenant-a', { page: 1, limit: 10, search: 'pelican' })).total).toBe(0);
    });
  });

  describe('updating', () => {
    it('applies changes of one record one at a time, each decided on the state the last one left', async () => {
      const store = await adapter.open();
      const [doc] = await store.insert([file('a.pdf')], NOW);
      await completed(store, doc!, 'A');
      // Twenty retries at once: only the first finds the document finished.
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          store.update(doc!.id, (current) =>
            current.status === 'processing' ? undefined : { record: { ...current, status: 'processing', attempts: current.attempts + 1 } },
          ),
        ),
      );
      expect(results.filter((r) => r?.changed)).toHaveLength(1);
      expect(await store.byId(doc!.id)).toMatchObject({ status: 'processing', attempts: 2 });
    });

    it('leaves a record as it is when the decision is no change, and finds nothing for a record that is gone', async () => {
      const store = await adapter.open();
      const [doc] = await store.insert([file('a.pdf')], NOW);
      expect(await store.update(doc!.id, () => undefined)).toEqual({ record: expect.objectContaining({ id: doc!.id }), changed: false });
      await store.removeTenant('tenant-a');
      expect(await store.update(doc!.id, (current) => ({ record: current }))).toBeUndefined();
    });
  });

  describe('Idempotency-Keys', () => {
    const remember = (key: string, expires_at = LATER) => ({ key, fingerprint: `fp-${key}`, expires_at });

    it('are held by one upload in flight at a time, and free again once released', async () => {
      const store = await adapter.open();
      const first = await store.claimKey('tenant-a', 'k', NOW);
      expect(first.kind).toBe('claimed');
      expect((await store.claimKey('tenant-a', 'k', NOW)).kind).toBe('in_use');
      expect((await store.claimKey('tenant-b', 'k', NOW)).kind).toBe('claimed');
      if (first.kind === 'claimed') await first.release();
      expect((await store.claimKey('tenant-a', 'k', NOW)).kind).toBe('claimed');
    });

    it('remember an upload as its 202 showed it, until they expire, for its tenant only', async () => {
      const store = await adapter.open();
      const claim = await store.claimKey('tenant-a', 'k', NOW);
      const uploaded = await store.insert([file('a.pdf'), file('b.pdf')], NOW, remember('k'));
      if (claim.kind === 'claimed') await claim.release();
      await completed(store, uploaded[0]!, 'TEXT');
      const found = await store.claimKey('tenant-a', 'k', NOW);
      expect(found).toEqual({ kind: 'earlier', upload: { fingerprint: 'fp-k', documents: uploaded } });
      expect((await store.claimKey('tenant-a', 'k', '2024-05-03T00:00:00.000Z')).kind).toBe('claimed');
    });

    it('are forgotten with their tenant on reset', async () => {
      const store = await adapter.open();
      await store.insert([file('a.pdf')], NOW, remember('k'));
      expect(await store.removeTenant('tenant-a')).toBe(1);
      expect((await store.claimKey('tenant-a', 'k', NOW)).kind).toBe('claimed');
    });

    it('of an expired upload are replaced by the next upload under them', async () => {
      const store = await adapter.open();
      await store.insert([file('old.pdf')], NOW, remember('k', '2024-05-02T09:15:00.000Z'));
      const fresh = await store.insert([file('new.pdf')], LATER, {
        key: 'k',
        fingerprint: 'fp-new',
        expires_at: '2024-05-03T09:20:00.000Z',
      });
      expect(await store.claimKey('tenant-a', 'k', LATER)).toEqual({
        kind: 'earlier',
        upload: { fingerprint: 'fp-new', documents: fresh },
      });
    });
  });

  it('deletes a tenant’s documents with their files on reset, and nobody else’s', async () => {
    const store = await adapter.open();
    const [mine] = await store.insert([file('mine.pdf', 'tenant-a')], NOW);
    const [theirs] = await store.insert([file('theirs.pdf', 'tenant-b')], NOW);
    expect(await store.removeTenant('tenant-a')).toBe(1);
    expect(await store.byId(mine!.id)).toBeUndefined();
    await expect(store.readFile(mine!.id)).rejects.toThrow();
    expect(await store.get('tenant-b', theirs!.id)).toBeDefined();
    expect(await store.removeTenant('tenant-a')).toBe(0);
  });
});
