import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { prepareDataDir, type DataDirLayout } from './data-dir.js';
import { CorruptFileError, createDurableJsonFile, fsyncDir, writeFileDurably } from './durable-fs.js';
import type { ContentType, DocumentRecord, DocumentStatus } from './model.js';
import type { ListQuery } from './validation.js';

const FORMAT = 'docproc-store/1';

/** What the db file holds. Extracted text is not in here: its cost would grow every write. */
export interface StoreData {
  format: typeof FORMAT;
  next_id: number;
  /** Secret that makes tenant ids irreversible; made once per data dir. */
  tenant_salt: string;
  documents: DocumentRecord[];
  /** Successful uploads remembered under their Idempotency-Key, per tenant, until they expire. */
  idempotency: IdempotencyRecord[];
}

/** A successful upload remembered under its Idempotency-Key. */
export interface IdempotencyRecord {
  tenant: string;
  key: string;
  /** Identifies the files (names and bytes, in order); see upload/idempotency.ts. */
  fingerprint: string;
  expires_at: string;
  /** The 202 body, replayed as it was. */
  response: unknown;
}

/** What to remember of an upload under its Idempotency-Key (the response is built from its records). */
export interface Remember {
  key: string;
  fingerprint: string;
  expires_at: string;
  response: (records: DocumentRecord[]) => unknown;
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
  /** How many times the db file has been written (concurrent changes share writes). */
  readonly writes: number;
  /**
   * Moves the files in and creates one `processing` record each, durably, ids in order; with
   * `remember`, the upload is remembered under its Idempotency-Key in the same write.
   */
  insert(files: NewDocument[], now: string, remember?: Remember): Promise<DocumentRecord[]>;
  /** The unexpired upload a tenant made under an Idempotency-Key, or undefined. */
  idempotent(tenant: string, key: string, now: string): IdempotencyRecord | undefined;
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
  if (!Array.isArray(d.documents)) fail('"documents" is not an array');
  d.idempotency ??= [];
  if (!Array.isArray(d.idempotency)) fail('"idempotency" is not an array');
  for (const doc of d.documents!) {
    if (!Number.isSafeInteger(doc?.id) || doc.id >= d.next_id! || typeof doc.tenant !== 'string') fail('a document record is damaged');
  }
  return d as StoreData;
}

const newest = (a: DocumentRecord, b: DocumentRecord) =>
  a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1;

/**
 * Opens (or creates) the store in a data dir: takes the dir's lock, sweeps temp files of
 * interrupted uploads and orphaned files, and refuses a damaged db file with an error naming it.
 * @example const store = await openStore('.docproc'); store.get(tenant, 1);
 */
export async function openStore(dataDir: string): Promise<Store> {
  const { layout, release } = await prepareDataDir(dataDir);
  const file = createDurableJsonFile<StoreData>(layout.dbFile);
  const db = new Low<StoreData>(file, { format: FORMAT, next_id: 1, tenant_salt: randomBytes(32).toString('hex'), documents: [], idempotency: [] });
  try {
    await db.read();
    db.data = checkShape(db.data, layout.dbFile);
    await db.write();
    await sweepOrphans(layout, new Set(db.data.documents.map((d) => d.id)));
  } catch (error) {
    await release();
    throw error;
  }

  const data = db.data;
  const byId = new Map(data.documents.map((d) => [d.id, d]));
  const texts = new Map<number, string>();
  const blobPath = (id: number) => join(layout.filesDir, String(id));
  const textPath = (id: number) => join(layout.textsDir, `${id}.txt`);

  const text = async (record: DocumentRecord): Promise<string | null> => {
    if (record.status !== 'completed') return null;
    let cached = texts.get(record.id);
    if (cached === undefined) {
      cached = await readFile(textPath(record.id), 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      texts.set(record.id, cached);
    }
    return cached;
  };

  return {
    layout,
    tenantSalt: data.tenant_salt,
    get writes() {
      return file.writes;
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
      try {
        await Promise.all(records.map((record, i) => rename(files[i]!.tempPath, blobPath(record.id))));
        await fsyncDir(layout.filesDir);
        for (const record of records) {
          data.documents.push(record);
          byId.set(record.id, record);
        }
        if (remember) {
          const { key, fingerprint, expires_at } = remember;
          const tenant = records[0]!.tenant;
          data.idempotency = data.idempotency.filter((r) => r.expires_at > now && !(r.tenant === tenant && r.key === key));
          data.idempotency.push({ tenant, key, fingerprint, expires_at, response: remember.response(records) });
        }
        await db.write();
      } catch (error) {
        const ids = new Set(records.map((r) => r.id));
        data.documents = data.documents.filter((d) => !ids.has(d.id));
        if (remember) data.idempotency = data.idempotency.filter((r) => !(r.key === remember.key && r.tenant === records[0]!.tenant));
        for (const id of ids) byId.delete(id);
        await Promise.all([...records.map((r) => rm(blobPath(r.id), { force: true })), ...files.map((f) => rm(f.tempPath, { force: true }))]);
        throw error;
      }
      return records.map((r) => ({ ...r }));
    },
    idempotent(tenant, key, now) {
      return data.idempotency.find((r) => r.tenant === tenant && r.key === key && r.expires_at > now);
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
      return data.documents.filter((d) => d.status === status).map((d) => ({ ...d }));
    },
    async list(tenant, query) {
      let matches = data.documents.filter((d) => d.tenant === tenant && (!query.status || d.status === query.status));
      if (query.search !== undefined) {
        const term = query.search.toLowerCase();
        const found: DocumentRecord[] = [];
        for (const d of matches) {
          if (d.filename.toLowerCase().includes(term) || (await text(d))?.toLowerCase().includes(term)) found.push(d);
        }
        matches = found;
      }
      matches.sort(newest);
      const start = (query.page - 1) * query.limit;
      return { documents: matches.slice(start, start + query.limit).map((d) => ({ ...d })), total: matches.length };
    },
    content: text,
    async replace(record, newText) {
      if (!byId.has(record.id)) return undefined;
      if (newText !== undefined) {
        await writeFileDurably(textPath(record.id), newText);
        texts.set(record.id, newText);
      }
      const current = byId.get(record.id);
      if (!current) return undefined;
      Object.assign(current, record);
      await db.write();
      return { ...current };
    },
    async removeTenant(tenant) {
      const removed = data.documents.filter((d) => d.tenant === tenant);
      data.documents = data.documents.filter((d) => d.tenant !== tenant);
      data.idempotency = data.idempotency.filter((r) => r.tenant !== tenant);
      for (const d of removed) {
        byId.delete(d.id);
        texts.delete(d.id);
      }
      await db.write();
      await Promise.all(removed.flatMap((d) => [rm(blobPath(d.id), { force: true }), rm(textPath(d.id), { force: true })]));
      return removed.length;
    },
    blobPath,
    async close() {
      await file.settled();
      await release();
    },
  };
}

// Files without a record are left over from a crash between moving an upload in and recording
// it, or between removing a record and its files; either way nothing refers to them.
async function sweepOrphans(layout: DataDirLayout, ids: Set<number>): Promise<void> {
  const sweep = async (dir: string, idOf: (name: string) => number) => {
    for (const name of await readdir(dir)) {
      if (!ids.has(idOf(name))) await rm(join(dir, name), { force: true, recursive: true });
    }
  };
  await sweep(layout.filesDir, (name) => (/^\d+$/.test(name) ? Number(name) : NaN));
  await sweep(layout.textsDir, (name) => (/^\d+\.txt$/.test(name) ? Number.parseInt(name, 10) : NaN));
}
