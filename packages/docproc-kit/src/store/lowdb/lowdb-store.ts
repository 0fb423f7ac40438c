import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentRecord } from '@docproc-kit/reference/model.js';
import { type Catalog, createCatalog, newRecord, type UploadKey } from '@docproc-kit/reference/store/catalog.js';
import type { DocumentStore, NewDocument, StagedFile } from '@docproc-kit/reference/store/document-store.js';
import { Low } from 'lowdb';
import type { Logger } from 'pino';
import { type DataDirLayout, prepareDataDir } from './data-dir.js';
import { createDurableJsonFile, type DurableJsonFile, fsyncDir, MissingFileError, writeFileDurably } from './durable-fs.js';
import { checkMeta, META_FORMAT, type StoreMeta } from './meta-file.js';
import { recordCheck } from './record-check.js';
import { openSegments, type Segments, segmentOf } from './segments.js';
import { exists, findOrphans, moveLegacyKeys, refuseLostDb } from './startup.js';
import { createTextFiles, type TextFiles } from './texts.js';

// Expired Idempotency-Keys are ignored at once; this only bounds how long they take up space.
const PRUNE_EVERY_MS = 10 * 60 * 1000;
const TEXT_WRITES_AT_ONCE = 16;

/** The durable store: records in lowdb files, bytes and texts in files beside them, all in one data dir. */
export interface LowdbStore extends DocumentStore {
  readonly layout: DataDirLayout;
  /** How many times a db or records file has been written (concurrent changes share writes). */
  readonly writes: number;
  filePath(id: number): string;
}

/** Options of {@link openLowdbStore}. */
export interface LowdbStoreOptions {
  /** Where trouble that fails no request is reported (an unreadable text file). */
  logger?: Logger;
  /** The time expired Idempotency-Keys are pruned against (default: the system clock). */
  clock?: () => Date;
  /** How often expired Idempotency-Keys are pruned (default 10 minutes). */
  pruneEveryMs?: number;
}

interface OpenedFiles {
  db: Low<StoreMeta>;
  metaFile: DurableJsonFile<StoreMeta>;
  segments: Segments;
  /** Keys of a data dir from before they moved into the records files. */
  movedKeys: UploadKey[];
}

// Reads and checks everything, decides what to mend and sweep before writing or deleting anything (so a
// refusal changes nothing), then mends and sweeps.
async function openFiles(layout: DataDirLayout, now: string): Promise<OpenedFiles> {
  const metaFile = createDurableJsonFile<StoreMeta>(layout.dbFile);
  const db = new Low<StoreMeta>(metaFile, { format: META_FORMAT, next_id: 1, tenant_salt: randomBytes(32).toString('hex'), segments: [] });
  if (!(await exists(layout.dbFile))) await refuseLostDb(layout);
  await db.read();
  const meta = checkMeta(db.data, layout.dbFile);
  db.data = meta;
  const segments = await openSegments(layout.recordsDir, await recordCheck());
  const present = new Set(segments.present);
  const listed = meta.segments;
  for (const block of listed ?? []) {
    if (!present.has(block))
      throw new MissingFileError(join(layout.recordsDir, `${block}.json`), `${layout.dbFile} lists it as holding document records`);
  }
  meta.segments = [...new Set([...(listed ?? []), ...present])].sort((a, b) => a - b);
  // A crash between writing a records file and the db file leaves next_id behind the records.
  meta.next_id = Math.max(meta.next_id, (segments.loaded.at(-1)?.id ?? 0) + 1);
  const orphans = await findOrphans(layout, new Set(segments.loaded.map((d) => d.id)), present, listed === undefined);
  const movedKeys = moveLegacyKeys(meta.idempotency ?? [], segments, now);
  if (movedKeys.length > 0) await segments.flush(movedKeys.map((u) => u.first_id));
  delete meta.idempotency;
  await db.write();
  await Promise.all(orphans.map((path) => rm(path, { force: true, recursive: true })));
  return { db, metaFile, segments, movedKeys };
}

// The records and keys read at start-up, in memory; a key whose upload is expired or not whole is dropped
// (from disk with the next write of its file).
function catalogOf({ segments, movedKeys }: OpenedFiles, now: string): Catalog {
  const catalog = createCatalog();
  for (const record of segments.loaded) catalog.put(record);
  for (const upload of [...segments.loadedUploads, ...movedKeys]) {
    let whole = true;
    for (let id = upload.first_id; id < upload.first_id + upload.count; id++) whole &&= catalog.get(id)?.tenant === upload.tenant;
    if (upload.expires_at > now && whole) catalog.remember(upload);
    else segments.removeUpload(upload);
  }
  return catalog;
}

// Moves an upload's staged file to its place, durably (the folder is synced once by the caller).
async function place(file: StagedFile, path: string): Promise<void> {
  if (file.moveTo) await file.moveTo(path);
  else await writeFileDurably(path, await file.bytes(), { syncDir: false });
  await file.discard();
}

// The texts of seeded documents, a few files at a time (a seed has up to a thousand).
async function writeTexts(texts: TextFiles, records: DocumentRecord[], files: NewDocument[]): Promise<void> {
  const pending = records.flatMap((record, i) => {
    const text = files[i]!.state?.text;
    return text === undefined ? [] : [{ id: record.id, text }];
  });
  const worker = async () => {
    for (let next = pending.pop(); next; next = pending.pop()) await texts.write(next.id, next.text);
  };
  await Promise.all(Array.from({ length: TEXT_WRITES_AT_ONCE }, worker));
}

/**
 * Opens (or creates) the store in a data dir: takes the dir's lock, sweeps temp files of interrupted
 * uploads and files no record refers to, and refuses a damaged or missing db or records file (or record)
 * with an error naming it. Every change is on disk before it reaches memory, so a failed write changes
 * nothing. Extracted texts are loaded for search in the background, so start-up stays fast.
 * @example const store = await openLowdbStore('.docproc'); await store.get(tenant, 1);
 */
export async function openLowdbStore(
  dataDir: string,
  { logger, clock = () => new Date(), pruneEveryMs = PRUNE_EVERY_MS }: LowdbStoreOptions = {},
): Promise<LowdbStore> {
  const { layout, release } = await prepareDataDir(dataDir);
  let opened: OpenedFiles;
  try {
    opened = await openFiles(layout, clock().toISOString());
  } catch (error) {
    await release();
    throw error;
  }
  const { db, metaFile, segments } = opened;
  const meta = db.data;
  const catalog = catalogOf(opened, clock().toISOString());
  const texts = createTextFiles(layout.textsDir, logger);
  const textsReady = texts.loadAll(
    segments.loaded.filter((r) => r.status === 'completed').map((r) => r.id),
    (id, text) => catalog.addText(id, text),
  );
  const filePath = (id: number) => join(layout.filesDir, String(id));

  const pruner = startPruning(catalog, segments, clock, pruneEveryMs, logger);
  const { oneAtATime, exclusively } = createWriteOrder();

  return {
    layout,
    tenantSalt: meta.tenant_salt,
    get writes() {
      return metaFile.writes + segments.writes;
    },
    claimKey: async (tenant, key, now) => catalog.claimKey(tenant, key, now),
    async insert(files, now, remember) {
      // Ids are taken synchronously, so concurrent uploads never share one, and never handed out again
      // even if this upload fails below.
      const records = files.map((file) => newRecord(file, meta.next_id++, now));
      const ids = records.map((r) => r.id);
      const tenant = records[0]!.tenant;
      const upload: UploadKey | undefined = remember && { tenant, ...remember, first_id: ids[0]!, count: ids.length };
      // An expired upload under the same key (a live one would have been replayed instead).
      const replaced = remember && catalog.keyOf(tenant, remember.key);
      const touched = replaced ? [...ids, replaced.first_id] : ids;
      // On disk first, in memory only once it is there: a failed upload is never listed, not even while
      // it is being written.
      try {
        await Promise.all(records.map((record, i) => place(files[i]!.file, filePath(record.id))));
        await fsyncDir(layout.filesDir);
        await writeTexts(texts, records, files);
        for (const record of records) segments.put(record);
        if (replaced) segments.removeUpload(replaced);
        if (upload) segments.putUpload(upload);
        // The key is written with the records, in the same file: a replay never meets a key whose
        // documents do not exist. Records before the db file: after a crash in between, next_id is
        // mended at start-up, and the db never lists a records file that was never written.
        await segments.flush(touched);
        const listed = new Set(meta.segments);
        const fresh = [...new Set(ids.map(segmentOf))].filter((block) => !listed.has(block));
        if (fresh.length > 0) {
          meta.segments = [...listed, ...fresh].sort((a, b) => a - b);
          await db.write();
        }
        // Otherwise only next_id would change in the db file, and start-up mends that from the records.
      } catch (error) {
        for (const record of records) segments.remove(record.id);
        if (upload) segments.removeUpload(upload);
        if (replaced) segments.putUpload(replaced);
        await segments.flush(touched).catch(() => {});
        await Promise.all([
          ...ids.flatMap((id) => [rm(filePath(id), { force: true }), texts.remove(id)]),
          ...files.map((f) => f.file.discard()),
        ]);
        throw error;
      }
      if (replaced) catalog.forget(replaced);
      if (upload) catalog.remember(upload);
      return records.map((record, i) => catalog.put(record, files[i]!.state?.text));
    },
    get: async (tenant, id) => catalog.ofTenant(tenant, id),
    byId: async (id) => catalog.get(id),
    inStatus: async (status) => catalog.inStatus(status),
    async list(tenant, query) {
      if (query.search !== undefined) await textsReady;
      return catalog.list(tenant, query);
    },
    content: async (record) => (record.status === 'completed' ? texts.read(record.id) : null),
    readFile: (id) => readFile(filePath(id)),
    filePath,
    update: (id, decide) =>
      oneAtATime(id, async () => {
        const current = catalog.get(id);
        if (!current) return undefined;
        const change = decide(current);
        if (!change) return { record: current, changed: false };
        if (change.text !== undefined) await texts.write(id, change.text);
        // Memory takes the new record only once it is on disk.
        const next: DocumentRecord = { ...current, ...change.record, id };
        segments.put(next);
        try {
          await segments.flush([id]);
        } catch (error) {
          // The failed write may have shared a records file with other changes; write it again without
          // this one, so disk agrees with memory as soon as it can.
          segments.put(current);
          await segments.flush([id]).catch(() => {});
          throw error;
        }
        return { record: catalog.put(next, change.text), changed: true };
      }),
    removeTenant: (tenant) =>
      exclusively(async () => {
        const removed = catalog.ofTenantAll(tenant);
        const ids = removed.map((d) => d.id);
        const keys = catalog.keysOf(tenant);
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
        for (const id of ids) catalog.delete(id);
        for (const upload of keys) catalog.forget(upload);
        await Promise.all(ids.flatMap((id) => [rm(filePath(id), { force: true }), texts.remove(id)]));
        return removed.length;
      }),
    async close() {
      await pruner.stop();
      await textsReady.catch(() => {});
      await Promise.all([metaFile.settled(), segments.settled()]);
      await release();
    },
  };
}

// Expired keys are dropped from memory and from their records files on a timer.
function startPruning(catalog: Catalog, segments: Segments, clock: () => Date, everyMs: number, logger?: Logger) {
  let pruning: Promise<void> | undefined;
  const prune = async () => {
    const expired = catalog.expiredKeys(clock().toISOString());
    for (const upload of expired) {
      catalog.forget(upload);
      segments.removeUpload(upload);
    }
    if (expired.length > 0) await segments.flush(expired.map((u) => u.first_id));
  };
  const timer = setInterval(() => {
    pruning ??= prune()
      .catch((err: unknown) => logger?.error({ err }, 'could not prune expired Idempotency-Keys; trying again later'))
      .finally(() => (pruning = undefined));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await pruning;
    },
  };
}

// Changes of one record are made one after another, each from the record as the last one left it; a reset
// runs alone, so no record change revives a record it removes.
function createWriteOrder() {
  const pendingById = new Map<number, Promise<unknown>>();
  let removal: Promise<unknown> | undefined;
  const oneAtATime = <T>(id: number, task: () => Promise<T>): Promise<T> => {
    const waitForRemoval = async () => {
      while (removal) await removal.catch(() => {});
      return task();
    };
    const run = (pendingById.get(id) ?? Promise.resolve()).then(waitForRemoval, waitForRemoval);
    const tail = run.catch(() => {});
    pendingById.set(id, tail);
    void tail.then(() => pendingById.get(id) === tail && pendingById.delete(id));
    return run;
  };
  const exclusively = async <T>(task: () => Promise<T>): Promise<T> => {
    while (removal) await removal.catch(() => {});
    const run = task();
    removal = run;
    try {
      return await run;
    } finally {
      removal = undefined;
    }
  };
  return { oneAtATime, exclusively };
}
