import { randomBytes } from 'node:crypto';
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { ContentType, DocumentRecord, DocumentStatus } from '../model.js';
import type { ListQuery } from '../validation.js';
import { type DataDirLayout, prepareDataDir } from './data-dir.js';
import { CorruptFileError, createDurableJsonFile, fsyncDir, MissingFileError, writeFileDurably } from './durable-fs.js';
import { recordCheck } from './record-check.js';
import { createTenantIndex, listPage, type TenantIndex } from './store-index.js';
import { openSegments, type Segments, segmentOf, type UploadKey } from './store-segments.js';
import { exists, findOrphans, type LegacyIdempotencyRecord, moveLegacyKeys, refuseLostDb } from './store-startup.js';

const FORMAT = 'docproc-store/1';
// Reading every text file at once would exhaust file handles on a big store.
const TEXT_READS_AT_ONCE = 32;
// Clients poll the documents they are showing; their text is served from memory, within a budget.
const TEXT_CACHE_BYTES = 64 * 1024 * 1024;
// Expired Idempotency-Keys are ignored at once; this only bounds how long they take up space.
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * What the db file holds: the store's metadata. Document records live in records/ (one lowdb
 * file per block of ids) and extracted text in texts/, so no write grows with the store.
 */
export interface StoreData {
  format: typeof FORMAT;
  next_id: number;
  /** Secret that makes tenant ids irreversible; made once per data dir. */
  tenant_salt: string;
  /**
   * Where uploads remembered under an Idempotency-Key used to be kept, whole 202 bodies included;
   * now they live in the records files (see store-segments.ts). Read once to move them, then dropped.
   */
  idempotency?: LegacyIdempotencyRecord[];
  /**
   * The blocks of ids whose records file exists (see store-segments.ts). A block is listed once
   * its file is on disk and before any upload in it is acknowledged, so a listed file that is gone
   * was lost, and start-up stops instead of treating its uploads as orphans. Absent in data dirs
   * made before it was added.
   */
  segments?: number[];
}

/** What to remember of an upload under its Idempotency-Key. */
export interface Remember {
  key: string;
  /** Identifies the files (names and bytes, in order); see upload/idempotency.ts. */
  fingerprint: string;
  expires_at: string;
}

/** An earlier upload under an Idempotency-Key: its fingerprint and its documents as they were uploaded. */
export interface EarlierUpload {
  fingerprint: string;
  documents: DocumentRecord[];
}

/** A new state of a record, and the extracted text to store with it. */
export interface RecordChange {
  record: DocumentRecord;
  text?: string;
}

/** Options of {@link openStore}. */
export interface StoreOptions {
  /** Where trouble that fails no request is reported (an unreadable text file). */
  logger?: Logger;
  /** The time expired Idempotency-Keys are pruned against (default: the system clock). */
  clock?: () => Date;
  /** How often expired Idempotency-Keys are pruned (default 10 minutes). */
  pruneEveryMs?: number;
}

/** A file that has been received and fsynced in the temp dir, ready to become a document. */
export interface NewDocument {
  tenant: string;
  filename: string;
  content_type: ContentType;
  size_bytes: number;
  tempPath: string;
}

/** The document store: records in lowdb, bytes and text in files beside it. */
export interface Store {
  readonly layout: DataDirLayout;
  readonly tenantSalt: string;
  /** How many times a db or records file has been written (concurrent changes share writes). */
  readonly writes: number;
  /**
   * Moves the files in and creates one `processing` record each, durably, ids in order; with
   * `remember`, the upload is remembered under its Idempotency-Key.
   */
  insert(files: NewDocument[], now: string, remember?: Remember): Promise<DocumentRecord[]>;
  /** The unexpired upload a tenant made under an Idempotency-Key, rebuilt from its records, or undefined. */
  idempotent(tenant: string, key: string, now: string): EarlierUpload | undefined;
  /** The tenant's document, or undefined (other tenants' documents are undefined too). */
  get(tenant: string, id: number): DocumentRecord | undefined;
  /** Any tenant's document, for the processor. */
  byId(id: number): DocumentRecord | undefined;
  /** Every document in a status, for restart recovery. */
  inStatus(status: DocumentStatus): DocumentRecord[];
  /** One page of the tenant's documents, newest first, and the filtered total. */
  list(tenant: string, query: ListQuery): Promise<{ documents: DocumentRecord[]; total: number }>;
  /** A document's extracted text: null unless completed. */
  content(record: DocumentRecord): Promise<string | null>;
  /**
   * Replaces a record durably (writing `text` first when given); undefined when the record is
   * gone (a mock reset removed it meanwhile).
   */
  replace(record: DocumentRecord, text?: string): Promise<DocumentRecord | undefined>;
  /**
   * Changes a record durably, one change at a time per record: `decide` is given the record as the
   * change before left it and returns the new record (and text to write first), or undefined to
   * leave it. Resolves to the record afterwards and whether it changed; undefined when it is gone.
   * Use it where the change depends on the current state (a retry of a finished document).
   */
  update(
    id: number,
    decide: (current: DocumentRecord) => RecordChange | undefined,
  ): Promise<{ record: DocumentRecord; changed: boolean } | undefined>;
  /** Deletes every document of a tenant with its files; resolves to how many were deleted. */
  removeTenant(tenant: string): Promise<number>;
  /** Where a document's uploaded bytes are. */
  blobPath(id: number): string;
  /** Waits for pending writes and releases the data dir. */
  close(): Promise<void>;
}

function checkShape(data: unknown, path: string): StoreData {
  const fail = (reason: string): never => {
    throw new CorruptFileError(path, reason);
  };
  if (typeof data !== 'object' || data === null) return fail('not a JSON object');
  const d = data as Partial<StoreData>;
  if (d.format !== FORMAT) fail(`"format" is ${JSON.stringify(d.format)}, expected "${FORMAT}"`);
  if (!Number.isSafeInteger(d.next_id) || (d.next_id as number) < 1) fail('"next_id" is not a positive integer');
  if (typeof d.tenant_salt !== 'string' || d.tenant_salt.length < 16) fail('"tenant_salt" is missing');
  if (d.idempotency !== undefined && !Array.isArray(d.idempotency)) fail('"idempotency" is not an array');
  if (d.segments !== undefined && !(Array.isArray(d.segments) && d.segments.every((n) => Number.isSafeInteger(n) && n >= 0))) {
    fail('"segments" is not a list of records-file numbers');
  }
  return d as StoreData;
}

const readText = (path: string) =>
  readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });

/**
 * Opens (or creates) the store in a data dir: takes the dir's lock, sweeps temp files of
 * interrupted uploads and orphaned files, and refuses a damaged or missing db or records file (or
 * record) with an error naming it. Extracted text is loaded for search in the background, so
 * start-up stays fast; a text that cannot be read is logged and left out of search.
 * @example const store = await openStore('.docproc'); store.get(tenant, 1);
 */
export async function openStore(
  dataDir: string,
  { logger, clock = () => new Date(), pruneEveryMs = PRUNE_EVERY_MS }: StoreOptions = {},
): Promise<Store> {
  const { layout, release } = await prepareDataDir(dataDir);
  const metaFile = createDurableJsonFile<StoreData>(layout.dbFile);
  const db = new Low<StoreData>(metaFile, { format: FORMAT, next_id: 1, tenant_salt: randomBytes(32).toString('hex'), segments: [] });
  let segments: Segments;
  let movedKeys: UploadKey[] = [];
  try {
    if (!(await exists(layout.dbFile))) await refuseLostDb(layout);
    await db.read();
    db.data = checkShape(db.data, layout.dbFile);
    segments = await openSegments(layout.recordsDir, await recordCheck());
    const present = new Set(segments.present);
    const listed = db.data.segments;
    for (const block of listed ?? []) {
      if (!present.has(block))
        throw new MissingFileError(join(layout.recordsDir, `${block}.json`), `${layout.dbFile} lists it as holding document records`);
    }
    db.data.segments = [...new Set([...(listed ?? []), ...present])].sort((a, b) => a - b);
    // A crash between writing a records file and the db file leaves next_id behind the records.
    db.data.next_id = Math.max(db.data.next_id, (segments.loaded.at(-1)?.id ?? 0) + 1);
    // Decided before anything is written or deleted, so a refusal changes nothing.
    const orphans = await findOrphans(layout, new Set(segments.loaded.map((d) => d.id)), present, listed === undefined);
    // Keys of a data dir from before they moved into the records files: moved there, then dropped from db.json.
    movedKeys = moveLegacyKeys(db.data.idempotency ?? [], segments, clock().toISOString());
    if (movedKeys.length > 0) await segments.flush(movedKeys.map((u) => u.first_id));
    delete db.data.idempotency;
    await db.write();
    await Promise.all(orphans.map((path) => rm(path, { force: true, recursive: true })));
  } catch (error) {
    await release();
    throw error;
  }

  const data = db.data;
  const byId = new Map<number, DocumentRecord>();
  const tenants = new Map<string, TenantIndex>();
  // Lower-cased extracted text of completed documents, for search; the original stays on disk.
  const lowerTexts = new Map<number, string>();
  const recentTexts = new LRUCache<number, string>({ maxSize: TEXT_CACHE_BYTES, sizeCalculation: (text) => text.length * 2 + 1 });
  const blobPath = (id: number) => join(layout.filesDir, String(id));
  const textPath = (id: number) => join(layout.textsDir, `${id}.txt`);
  const indexOf = (tenant: string) => {
    const existing = tenants.get(tenant);
    if (existing) return existing;
    const index = createTenantIndex();
    tenants.set(tenant, index);
    return index;
  };
  for (const record of segments.loaded) {
    byId.set(record.id, record);
    indexOf(record.tenant).add(record);
  }
  // Uploads remembered under an Idempotency-Key, by tenant and key.
  const uploads = new Map<string, UploadKey>();
  const slot = (tenant: string, key: string) => `${tenant}\n${key}`;
  const idsOf = (upload: UploadKey) => Array.from({ length: upload.count }, (_, i) => upload.first_id + i);
  {
    const now = clock().toISOString();
    for (const upload of [...segments.loadedUploads, ...movedKeys]) {
      const whole = idsOf(upload).every((id) => byId.get(id)?.tenant === upload.tenant);
      if (upload.expires_at > now && whole) uploads.set(slot(upload.tenant, upload.key), upload);
      else segments.removeUpload(upload); // gone from disk with the next write of its file
    }
  }
  const prune = async () => {
    const now = clock().toISOString();
    const expired = [...uploads.values()].filter((u) => u.expires_at <= now);
    for (const upload of expired) {
      uploads.delete(slot(upload.tenant, upload.key));
      segments.removeUpload(upload);
    }
    if (expired.length > 0) await segments.flush(expired.map((u) => u.first_id));
  };
  let pruning: Promise<void> | undefined;
  const pruner = setInterval(() => {
    pruning ??= prune()
      .catch((err: unknown) => logger?.error({ err }, 'could not prune expired Idempotency-Keys; trying again later'))
      .finally(() => (pruning = undefined));
  }, pruneEveryMs);
  pruner.unref();

  const loadTexts = async () => {
    const pending = segments.loaded.filter((r) => r.status === 'completed').map((r) => r.id);
    const worker = async () => {
      for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
        let text: string;
        try {
          text = await readText(textPath(id));
        } catch (err) {
          // One unreadable text must not fail every search: that document is found by its name only.
          logger?.error({ err, documentId: id }, 'could not read the extracted text of a document; search leaves its text out');
          continue;
        }
        // A run that finished meanwhile already put the newer text in.
        if (!lowerTexts.has(id)) lowerTexts.set(id, text.toLowerCase());
      }
    };
    await Promise.all(Array.from({ length: TEXT_READS_AT_ONCE }, worker));
  };
  const textsReady = loadTexts();
  // Changes of one record are made one after another, each from the record as the last one left it.
  const pendingById = new Map<number, Promise<unknown>>();
  const oneAtATime = <T>(id: number, task: () => Promise<T>): Promise<T> => {
    const run = (pendingById.get(id) ?? Promise.resolve()).then(task, task);
    const tail = run.catch(() => {});
    pendingById.set(id, tail);
    void tail.then(() => pendingById.get(id) === tail && pendingById.delete(id));
    return run;
  };
  // A reset being written; record changes wait for it, so none revives a record it removes.
  let removal: Promise<void> | undefined;
  const searchableText = (record: DocumentRecord) => (record.status === 'completed' ? lowerTexts.get(record.id) : undefined);

  const update: Store['update'] = (id, decide) =>
    oneAtATime(id, async () => {
      while (removal) await removal.catch(() => {});
      const current = byId.get(id);
      if (!current) return undefined;
      const change = decide({ ...current });
      if (!change) return { record: { ...current }, changed: false };
      const newText = change.text;
      if (newText !== undefined) await writeFileDurably(textPath(id), newText);
      // Records are never changed in place: memory takes the new one only once it is on disk.
      const next: DocumentRecord = { ...current, ...change.record, id };
      segments.put(next);
      try {
        await segments.flush([next.id]);
      } catch (error) {
        // The failed write may have shared a records file with other changes; write it again
        // without this one, so disk agrees with memory as soon as it can.
        segments.put(current);
        await segments.flush([next.id]).catch(() => {});
        throw error;
      }
      byId.set(next.id, next);
      indexOf(next.tenant).update(current, next);
      if (newText !== undefined) {
        lowerTexts.set(next.id, newText.toLowerCase());
        recentTexts.set(next.id, newText);
      }
      return { record: { ...next }, changed: true };
    });

  return {
    layout,
    tenantSalt: data.tenant_salt,
    get writes() {
      return metaFile.writes + segments.writes;
    },
    async insert(files, now, remember) {
      // Ids are taken synchronously, so concurrent uploads never share one, and never handed out
      // again even if this upload fails below.
      const records: DocumentRecord[] = files.map(({ tempPath: _, ...file }) => ({
        ...file,
        id: data.next_id++,
        status: 'processing',
        attempts: 1,
        error: null,
        created_at: now,
        updated_at: now,
        processed_at: null,
        next_outcome: null,
      }));
      const ids = records.map((r) => r.id);
      const tenant = records[0]!.tenant;
      const upload: UploadKey | undefined = remember && { tenant, ...remember, first_id: ids[0]!, count: ids.length };
      // An expired upload under the same key (a live one would have been replayed instead).
      const replaced = remember && uploads.get(slot(tenant, remember.key));
      const touched = replaced ? [...ids, replaced.first_id] : ids;
      // On disk first, in memory only once it is there: a failed upload is never listed, not even
      // while it is being written.
      try {
        await Promise.all(records.map((record, i) => rename(files[i]!.tempPath, blobPath(record.id))));
        await fsyncDir(layout.filesDir);
        for (const record of records) segments.put(record);
        if (replaced) segments.removeUpload(replaced);
        if (upload) segments.putUpload(upload);
        // The key is written with the records, in the same file: a replay never meets a key whose
        // documents do not exist. Records before the db file: after a crash in between, next_id is
        // mended at start-up, and the db never lists a records file that was never written.
        await segments.flush(touched);
        const listed = new Set(data.segments);
        const fresh = [...new Set(ids.map(segmentOf))].filter((block) => !listed.has(block));
        if (fresh.length > 0) {
          data.segments = [...listed, ...fresh].sort((a, b) => a - b);
          await db.write();
        }
        // Otherwise only next_id would change in the db file, and start-up mends that from the records.
      } catch (error) {
        for (const record of records) segments.remove(record.id);
        if (upload) segments.removeUpload(upload);
        if (replaced) segments.putUpload(replaced);
        await segments.flush(touched).catch(() => {});
        await Promise.all([...ids.map((id) => rm(blobPath(id), { force: true })), ...files.map((f) => rm(f.tempPath, { force: true }))]);
        throw error;
      }
      for (const record of records) {
        byId.set(record.id, record);
        indexOf(record.tenant).add(record);
      }
      if (upload) uploads.set(slot(tenant, upload.key), upload);
      return records.map((r) => ({ ...r }));
    },
    idempotent(tenant, key, now) {
      const upload = uploads.get(slot(tenant, key));
      if (!upload || upload.expires_at <= now) return undefined;
      const documents = idsOf(upload).map((id) => byId.get(id));
      if (documents.some((d) => d === undefined)) return undefined;
      // As the 202 showed them: a new upload, processing its first run.
      return { fingerprint: upload.fingerprint, documents: documents.map((d) => asUploaded(d!)) };
    },
    get(tenant, id) {
      const record = byId.get(id);
      return record && record.tenant === tenant ? { ...record } : undefined;
    },
    byId(id) {
      const record = byId.get(id);
      return record && { ...record };
    },
    inStatus(status) {
      return [...byId.values()].filter((d) => d.status === status).map((d) => ({ ...d }));
    },
    async list(tenant, query) {
      if (query.search !== undefined) await textsReady;
      const { documents, total } = listPage(tenants.get(tenant), query, searchableText);
      return { documents: documents.map((d) => ({ ...d })), total };
    },
    async content(record) {
      if (record.status !== 'completed') return null;
      const cached = recentTexts.get(record.id);
      if (cached !== undefined) return cached;
      const text = await readText(textPath(record.id));
      recentTexts.set(record.id, text);
      return text;
    },
    async replace(record, text) {
      return (await update(record.id, () => ({ record, text })))?.record;
    },
    update,
    async removeTenant(tenant) {
      while (removal) await removal.catch(() => {});
      const removed = [...byId.values()].filter((d) => d.tenant === tenant);
      const ids = removed.map((d) => d.id);
      const keys = [...uploads.values()].filter((u) => u.tenant === tenant);
      const write = (async () => {
        for (const id of ids) segments.remove(id);
        for (const upload of keys) segments.removeUpload(upload);
        // db.json too: it keeps next_id above the removed ids, which start-up cannot mend from records.
        try {
          await Promise.all([segments.flush(ids), db.write()]);
        } catch (error) {
          for (const d of removed) segments.put(d);
          for (const upload of keys) segments.putUpload(upload);
          await segments.flush(ids).catch(() => {});
          throw error;
        }
      })();
      removal = write;
      try {
        await write;
      } finally {
        removal = undefined;
      }
      for (const id of ids) {
        byId.delete(id);
        lowerTexts.delete(id);
        recentTexts.delete(id);
      }
      for (const upload of keys) uploads.delete(slot(tenant, upload.key));
      // Rebuilt rather than dropped: an upload of this tenant may have landed meanwhile.
      tenants.delete(tenant);
      for (const record of byId.values()) if (record.tenant === tenant) indexOf(tenant).add(record);
      await Promise.all(removed.flatMap((d) => [rm(blobPath(d.id), { force: true }), rm(textPath(d.id), { force: true })]));
      return removed.length;
    },
    blobPath,
    async close() {
      clearInterval(pruner);
      await pruning;
      await textsReady.catch(() => {});
      await Promise.all([metaFile.settled(), segments.settled()]);
      await release();
    },
  };
}

/** A record as its upload's 202 showed it. */
const asUploaded = (record: DocumentRecord): DocumentRecord => ({
  ...record,
  status: 'processing',
  attempts: 1,
  error: null,
  updated_at: record.created_at,
  processed_at: null,
  next_outcome: null,
});
