import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { createKeyring, DEV_API_KEY } from '@docproc-kit/reference/api/keys.js';
import type { DocumentRecord } from '@docproc-kit/reference/model.js';
import type { EarlierUpload, NewDocument } from '@docproc-kit/reference/store/document-store.js';
import { contractFetch, fixture, startReferenceServer, until } from '@docproc-kit/test-support/reference-server.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stagedTempFile } from '../../http/upload/staged-temp-file.js';
import { saltedTenants } from '../../server/auth.js';
import { DataDirLockedError } from './data-dir.js';
import { CorruptFileError, MissingFileError } from './durable-fs.js';
import { type LowdbStore, type LowdbStoreOptions, openLowdbStore } from './lowdb-store.js';
import { SEGMENT_SIZE } from './segments.js';

// The real store on a real temp dir: durability, coalescing, start-up checks and sweeps (what every store
// does is @docproc-kit/reference's src/store/store-contract.test.ts).
let dir: string;
const opened: LowdbStore[] = [];
const openStore = (at: string, options: LowdbStoreOptions = {}) => openLowdbStore(at, options);
const open = async (options: LowdbStoreOptions = {}) => {
  const store = await openStore(dir, options);
  opened.push(store);
  return store;
};
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docproc-store-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close().catch(() => {})));
  await rm(dir, { recursive: true, force: true });
});

const NOW = '2024-05-02T09:14:03.120Z';
// An upload as the multipart receiver hands it over: a temp file in the data dir's tmp/, moved in by the store.
async function received(store: LowdbStore, name: string, tenant = 'tenant-a'): Promise<NewDocument> {
  const tempPath = join(store.layout.tmpDir, `${name}.part`);
  await writeFile(tempPath, `%PDF-1.7 ${name}`);
  return {
    tenant,
    filename: name,
    content_type: 'application/pdf',
    size_bytes: 9 + name.length,
    file: stagedTempFile(tempPath, 9 + name.length),
  };
}
/** The unexpired upload remembered under a key, or undefined (leaving the key unclaimed). */
async function earlier(store: LowdbStore, tenant: string, key: string, now: string): Promise<EarlierUpload | undefined> {
  const claim = await store.claimKey(tenant, key, now);
  if (claim.kind === 'claimed') await claim.release();
  return claim.kind === 'earlier' ? claim.upload : undefined;
}
const replace = (store: LowdbStore, record: DocumentRecord, text?: string) => store.update(record.id, () => ({ record, text }));
/** Every record on disk, from all records files, as a restarted server would read them. */
const onDisk = async () => {
  // Only the records files (`<block>.json`): a write in flight has a hidden temp file beside them, half written.
  const files = (await readdir(join(dir, 'records'))).filter((name) => /^\d+\.json$/.test(name));
  const segments = await Promise.all(files.map(async (name) => JSON.parse(await readFile(join(dir, 'records', name), 'utf8'))));
  return { documents: segments.flatMap((segment: { documents: Array<{ id: number; error?: { message: string } }> }) => segment.documents) };
};

describe('writes', () => {
  it('are on disk when they resolve, atomically replaced, with no temp file left behind', async () => {
    const store = await open();
    const [record] = await store.insert([await received(store, 'a.pdf')], NOW);
    expect((await onDisk()).documents).toEqual([expect.objectContaining({ id: record!.id, filename: 'a.pdf', status: 'processing' })]);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(await readFile(store.filePath(record!.id), 'utf8')).toBe('%PDF-1.7 a.pdf');
  });

  it('made concurrently are coalesced into one follow-up write, and each caller sees its own change on disk', async () => {
    const store = await open();
    const records = await store.insert(await Promise.all(Array.from({ length: 40 }, (_, i) => received(store, `${i}.pdf`))), NOW);
    const before = store.writes;
    const seen = await Promise.all(
      records.map(async (record) => {
        await replace(store, { ...record, status: 'failed', error: { code: 'processing_error', message: `run ${record.id}` } });
        const mine = (await onDisk()).documents.find((d: { id: number }) => d.id === record.id);
        return mine?.error?.message;
      }),
    );
    expect(seen).toEqual(records.map((r) => `run ${r.id}`));
    // One write was already under way or started by the first caller; the other 39 share one.
    expect(store.writes - before).toBeLessThanOrEqual(2);
  });

  it('keep extracted text out of the db and records files, so a write does not grow with the text stored', async () => {
    const store = await open();
    const [record] = await store.insert([await received(store, 'big.pdf')], NOW);
    const text = 'PELICAN '.repeat(200_000);
    await replace(store, { ...record!, status: 'completed', processed_at: NOW }, text);
    expect((await stat(join(dir, 'db.json'))).size).toBeLessThan(4_096);
    expect((await stat(join(dir, 'records', '0.json'))).size).toBeLessThan(4_096);
    expect(await readFile(join(dir, 'texts', `${record!.id}.txt`), 'utf8')).toBe(text);
    expect(await store.content((await store.byId(record!.id))!)).toBe(text);
  });

  it('give ids from 1 that are never handed out again: not after a failed insert, a reset or a restart', async () => {
    let store = await open();
    const first = await store.insert([await received(store, 'a.pdf'), await received(store, 'b.pdf')], NOW);
    expect(first.map((r) => r.id)).toEqual([1, 2]);
    const missing = { ...(await received(store, 'gone.pdf')), file: stagedTempFile(join(dir, 'tmp', 'never-written'), 3) };
    await expect(store.insert([missing], NOW)).rejects.toThrow();
    expect(await store.byId(3)).toBeUndefined();
    expect(await store.removeTenant('tenant-a')).toBe(2);
    await store.close();
    store = await open();
    const [next] = await store.insert([await received(store, 'c.pdf')], NOW);
    expect(next!.id).toBe(4);
  });

  it('rewrite only the records file of the ids they change, so an upload costs the same however many documents are stored', async () => {
    const store = await open();
    const many = await Promise.all(Array.from({ length: SEGMENT_SIZE + 5 }, (_, i) => received(store, `${i}.pdf`)));
    await store.insert(many, NOW);
    const firstBlock = await stat(join(dir, 'records', '0.json'));
    await store.insert([await received(store, 'late.pdf')], NOW);
    expect((await stat(join(dir, 'records', '0.json'))).mtimeMs).toBe(firstBlock.mtimeMs);
    expect((await readdir(join(dir, 'records'))).sort()).toEqual(['0.json', '1.json']);
    expect((await onDisk()).documents).toHaveLength(SEGMENT_SIZE + 6);
  });

  it('mend next_id from the records after a crash between the records and the db file', async () => {
    let store = await open();
    await store.insert([await received(store, 'a.pdf'), await received(store, 'b.pdf')], NOW);
    await store.close();
    // As if the process died after writing the records file but before db.json.
    const meta = JSON.parse(await readFile(join(dir, 'db.json'), 'utf8'));
    await writeFile(join(dir, 'db.json'), JSON.stringify({ ...meta, next_id: 1 }));
    store = await open();
    const [next] = await store.insert([await received(store, 'c.pdf')], NOW);
    expect(next!.id).toBe(3);
  });
});

const GOOD = {
  id: 7,
  tenant: 't',
  filename: 'a.pdf',
  content_type: 'application/pdf',
  size_bytes: 10,
  status: 'completed',
  attempts: 1,
  error: null,
  created_at: NOW,
  updated_at: NOW,
  processed_at: NOW,
  next_outcome: null,
};
/** A records file holding one record: a good one with `change` made to it. */
const records = (change: Record<string, unknown>) => JSON.stringify({ format: 'docproc-records/1', documents: [{ ...GOOD, ...change }] });

describe('start-up', () => {
  it.each([
    ['db.json', 'garbage', 'this is { not json'],
    ['db.json', 'JSON of another shape', '{"documents": "nope"}'],
    ['records/0.json', 'garbage', '{"format": "docproc-records/1", "documents": ['],
    ['records/0.json', 'a damaged record', JSON.stringify({ format: 'docproc-records/1', documents: [{ id: 7, tenant: 't' }] })],
    [
      'records/3.json',
      'a record filed under the wrong block of ids',
      JSON.stringify({ format: 'docproc-records/1', documents: [{ id: 7, tenant: 't', created_at: NOW }] }),
    ],
    ['records/0.json', 'a record whose filename is null', records({ filename: null })],
    ['records/0.json', 'a record with an unknown status', records({ status: 'archived' })],
    ['records/0.json', 'a record with an unknown content type', records({ content_type: 'text/plain' })],
    ['records/0.json', 'a completed record with an error', records({ error: { code: 'processing_error', message: 'x' } })],
    ['records/0.json', 'a record with a malformed forced outcome', records({ next_outcome: { outcome: 'maybe' } })],
    ['records/0.json', 'one id twice', JSON.stringify({ format: 'docproc-records/1', documents: [GOOD, GOOD] })],
  ])('refuses %s holding %s with an error naming it, and leaves it untouched', async (file, _what, content) => {
    await (await openStore(dir)).close();
    await writeFile(join(dir, file), content);
    const error = await openStore(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptFileError);
    expect((error as Error).message).toContain(join(dir, file));
    if (file.startsWith('records/') && content.includes('"filename"')) expect((error as Error).message).toContain('(document 7)');
    expect(await readFile(join(dir, file), 'utf8')).toBe(content);
    // The failed start released the data dir again.
    await rm(join(dir, file));
    await open();
  });

  it('refuses an unreadable db file (a directory in its place) with an error naming it', async () => {
    await mkdir(join(dir, 'db.json'));
    await expect(openStore(dir)).rejects.toThrow(join(dir, 'db.json'));
  });

  it('refuses a data dir another live server holds, and takes over a lock left by a dead process', async () => {
    await open();
    await expect(openStore(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await opened.pop()!.close();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    await writeFile(join(dir, 'server.lock'), String(dead));
    await open();
  });

  it('stops when a records file the db lists is missing, deleting no upload, and starts once it is back', async () => {
    let store = await open();
    const kept = await store.insert([await received(store, 'a.pdf'), await received(store, 'b.pdf')], NOW);
    await replace(store, { ...kept[0]!, status: 'completed', processed_at: NOW }, 'PELICAN');
    await store.close();
    await rename(join(dir, 'records', '0.json'), join(dir, 'records-0.json.bak'));

    const error = await openStore(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingFileError);
    expect((error as Error).message).toContain(join(dir, 'records', '0.json'));
    expect((await readdir(join(dir, 'files'))).sort()).toEqual(['1', '2']);
    expect(await readdir(join(dir, 'texts'))).toEqual(['1.txt']);

    await rename(join(dir, 'records-0.json.bak'), join(dir, 'records', '0.json'));
    store = await open();
    expect((await store.list('tenant-a', { page: 1, limit: 20 })).total).toBe(2);
    expect(await store.content((await store.byId(1))!)).toBe('PELICAN');
  });

  it('stops when a records file is missing from a data dir made before the db listed them, if uploads of it remain', async () => {
    const store = await open();
    await store.insert([await received(store, 'a.pdf')], NOW);
    await store.close();
    const { segments: _, ...older } = JSON.parse(await readFile(join(dir, 'db.json'), 'utf8'));
    await writeFile(join(dir, 'db.json'), JSON.stringify(older));
    await rm(join(dir, 'records', '0.json'));
    await expect(openStore(dir)).rejects.toThrow(join(dir, 'records', '0.json'));
    expect(await readdir(join(dir, 'files'))).toEqual(['1']);
  });

  it('stops when db.json is missing but documents remain, instead of starting fresh with a new tenant salt', async () => {
    const store = await open();
    await store.insert([await received(store, 'a.pdf')], NOW);
    await store.close();
    await rm(join(dir, 'db.json'));
    const error = await openStore(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingFileError);
    expect((error as Error).message).toContain(join(dir, 'db.json'));
    expect((error as Error).message).toContain(join(dir, 'records', '0.json'));
    // Nothing was written or swept.
    expect(await readdir(dir)).not.toContain('db.json');
    expect(await readdir(join(dir, 'files'))).toEqual(['1']);
  });

  it('sweeps the bytes of an upload interrupted before the first record of a new block of ids was written', async () => {
    let store = await open();
    await store.insert([await received(store, 'a.pdf')], NOW);
    await store.close();
    await writeFile(join(dir, 'files', String(SEGMENT_SIZE + 1)), 'never acknowledged');
    store = await open();
    expect(await readdir(join(dir, 'files'))).toEqual(['1']);
  });

  it('sweeps temp files of interrupted writes and files no record refers to', async () => {
    let store = await open();
    const [kept] = await store.insert([await received(store, 'kept.pdf')], NOW);
    await store.close();
    // Temp files of durable writes cut short by a crash, beside the db, the records and the texts.
    await writeFile(join(dir, '.db.json.4242.7.tmp'), '{"half": ');
    await writeFile(join(dir, 'records', '.0.json.4242.8.tmp'), '{"half": ');
    await writeFile(join(dir, 'texts', `.${kept!.id}.txt.4242.9.tmp`), 'half a text');
    await writeFile(join(dir, 'files', '999'), 'orphan bytes');
    await writeFile(join(dir, 'texts', '999.txt'), 'orphan text');
    store = await open();
    expect(await readdir(join(dir, 'files'))).toEqual([String(kept!.id)]);
    expect(await readdir(join(dir, 'texts'))).toEqual([]);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(await readdir(join(dir, 'records'))).toEqual(['0.json']);
  });
});

describe('uploads remembered under an Idempotency-Key', () => {
  const remember = (key: string, expires_at = '2024-05-03T09:14:03.120Z') => ({ key, fingerprint: `fp-${key}`, expires_at });

  it('cost another upload the same however many keys are live: neither db.json nor its records file grows with them', async () => {
    const store = await open();
    // Concurrent, so the store coalesces their writes (one at a time they are 1,100 durable rewrites).
    const parts = await Promise.all(Array.from({ length: SEGMENT_SIZE + 100 }, (_, i) => received(store, `${i}.pdf`, 'tenant-a')));
    await Promise.all(parts.map((part, i) => store.insert([part], NOW, remember(`key-${i}`))));
    const db = await stat(join(dir, 'db.json'));
    expect(db.size).toBeLessThan(4_096);
    const [other] = await store.insert([await received(store, 'other.pdf', 'tenant-b')], NOW);
    // The other tenant's upload wrote only the records file of its own block of ids, not db.json.
    expect((await stat(join(dir, 'db.json'))).mtimeMs).toBe(db.mtimeMs);
    expect(Math.floor((other!.id - 1) / SEGMENT_SIZE)).toBe(1);
    expect((await stat(join(dir, 'records', '1.json'))).size).toBeLessThan(150 * 1_024);
  }, 120_000);

  it('replay the upload as it was, rebuilt from its records, also after a restart', async () => {
    let store = await open();
    const uploaded = await store.insert([await received(store, 'a.pdf'), await received(store, 'b.pdf')], NOW, remember('k'));
    await replace(store, { ...uploaded[0]!, status: 'completed', processed_at: NOW, updated_at: NOW }, 'TEXT');
    await store.close();
    store = await open({ clock: () => new Date(NOW) });
    const found = await earlier(store, 'tenant-a', 'k', NOW);
    expect(found?.fingerprint).toBe('fp-k');
    expect(found?.documents).toEqual(uploaded);
    expect(await earlier(store, 'tenant-b', 'k', NOW)).toBeUndefined();
    expect(await earlier(store, 'tenant-a', 'k', '2024-05-04T00:00:00.000Z')).toBeUndefined();
  });

  it('of a data dir from before they moved into the records files are moved there at start-up', async () => {
    let store = await open();
    const uploaded = await store.insert([await received(store, 'a.pdf'), await received(store, 'b.pdf')], NOW);
    await store.close();
    const meta = JSON.parse(await readFile(join(dir, 'db.json'), 'utf8'));
    const response = { documents: uploaded.map((r) => ({ document_id: r.id })) };
    const legacy = [
      { tenant: 'tenant-a', key: 'old', fingerprint: 'fp-old', expires_at: '2024-05-03T09:14:03.120Z', response },
      { tenant: 'tenant-a', key: 'expired', fingerprint: 'fp-x', expires_at: '2024-05-01T00:00:00.000Z', response },
    ];
    await writeFile(join(dir, 'db.json'), JSON.stringify({ ...meta, idempotency: legacy }));
    store = await open({ clock: () => new Date(NOW) });
    expect(await earlier(store, 'tenant-a', 'old', NOW)).toEqual({ fingerprint: 'fp-old', documents: uploaded });
    expect(await earlier(store, 'tenant-a', 'expired', NOW)).toBeUndefined();
    expect(JSON.parse(await readFile(join(dir, 'db.json'), 'utf8'))).not.toHaveProperty('idempotency');
    await store.close();
    store = await open({ clock: () => new Date(NOW) });
    expect((await earlier(store, 'tenant-a', 'old', NOW))?.fingerprint).toBe('fp-old');
  });

  it('are pruned on a timer once expired, from memory and from the records file', async () => {
    let now = new Date(NOW);
    const store = await openStore(dir, { clock: () => now, pruneEveryMs: 20 });
    opened.push(store);
    await store.insert([await received(store, 'a.pdf')], NOW, remember('k', '2024-05-02T10:00:00.000Z'));
    expect(await readFile(join(dir, 'records', '0.json'), 'utf8')).toContain('fp-k');
    now = new Date('2024-05-02T11:00:00.000Z');
    expect(await until(async () => !(await readFile(join(dir, 'records', '0.json'), 'utf8')).includes('fp-k'), 5_000)).toBe(true);
    expect(await earlier(store, 'tenant-a', 'k', '2024-05-02T09:30:00.000Z')).toBeUndefined();
  });
});

describe('a text file that cannot be read', () => {
  it('fails only its own document: search and the other documents are served', async () => {
    const store = await open();
    const tenant = createKeyring([DEV_API_KEY], saltedTenants(store.tenantSalt)).tenantOf(DEV_API_KEY)!;
    const [broken, fine] = await store.insert([await received(store, 'a.pdf', tenant), await received(store, 'b.pdf', tenant)], NOW);
    await replace(store, { ...broken!, status: 'completed', processed_at: NOW }, 'ALPHA');
    await replace(store, { ...fine!, status: 'completed', processed_at: NOW }, 'BETA');
    await opened.pop()!.close();
    // A directory where the text file should be: reading it fails (EISDIR), even as root.
    await rm(join(dir, 'texts', `${broken!.id}.txt`));
    await mkdir(join(dir, 'texts', `${broken!.id}.txt`));

    const server = await startReferenceServer({ dataDir: dir });
    try {
      const get = (path: string) => fetch(server.baseUrl + path, { headers: { 'x-api-key': DEV_API_KEY } });
      const search = await get('/api/v1/documents/get_documents?search=beta');
      expect(search.status).toBe(200);
      expect((await search.json()).documents.map((d: { document_id: number }) => d.document_id)).toEqual([fine!.id]);
      expect((await get('/api/v1/documents/get_documents?search=a.pdf')).status).toBe(200);
      expect((await get(`/api/v1/documents/get_document/${fine!.id}`)).status).toBe(200);
      expect((await get(`/api/v1/documents/get_document/${broken!.id}`)).status).toBe(500);
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe('restart recovery', () => {
  it('documents left processing by a stopped server are picked up again and finish from their bytes', async () => {
    const contract = await loadContract();
    const first = await startReferenceServer({ dataDir: dir, processingDelayMs: 600_000 });
    const body = new FormData();
    body.append('files[]', await fixture('text.pdf'), 'restart.pdf');
    const { body: uploaded } = await contractFetch(first, contract)('uploadDocuments', '/api/v1/documents/upload_files', {
      method: 'POST',
      body,
    });
    const id = uploaded.documents[0].document_id;
    await first.close();

    const second = await startReferenceServer({ dataDir: dir, processingDelayMs: 50 });
    try {
      expect(second.service.recovered).toBe(1);
      const call = contractFetch(second, contract);
      let doc: { status: string; content?: string } = { status: 'processing' };
      await until(async () => {
        doc = (await call('getDocument', `/api/v1/documents/get_document/${id}`)).body;
        return doc.status !== 'processing';
      });
      expect(doc).toMatchObject({ status: 'completed', content: expect.stringContaining('PELICAN') });
    } finally {
      await second.close();
    }
  }, 30_000);
});
