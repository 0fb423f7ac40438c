import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import type { DocumentRecord, DocumentStatus, ListQuery } from '../model.js';
import type { EarlierUpload, KeyClaim, NewDocument } from './document-store.js';
import { createTenantIndex, listPage, type Searchable, type TenantIndex } from './tenant-index.js';

/**
 * An upload remembered under its Idempotency-Key: only what a replay needs. Its documents are `first_id`
 * and the `count - 1` ids after it (an upload's ids are consecutive); the 202 is rebuilt from their records.
 */
export interface UploadKey {
  tenant: string;
  key: string;
  /** Identifies the files (names and bytes, in order); see upload/idempotency.ts. */
  fingerprint: string;
  expires_at: string;
  first_id: number;
  count: number;
}

/**
 * The documents of a store as held in memory, with what lists and replays need: each tenant's documents
 * in list order, the folded text searched, the remembered and the in-flight Idempotency-Keys. The memory
 * adapter is this alone; the lowdb adapter puts each change on disk before it reaches here. Records put in
 * are frozen: a change is a new record, so a record handed out never changes under its holder.
 */
export interface Catalog {
  get(id: number): DocumentRecord | undefined;
  /** The tenant's document, or undefined. */
  ofTenant(tenant: string, id: number): DocumentRecord | undefined;
  inStatus(status: DocumentStatus): DocumentRecord[];
  /** The tenant's documents, in no particular order. */
  ofTenantAll(tenant: string): DocumentRecord[];
  /** Adds a record or files a new state of one; `text` (a completed run's) becomes searchable. Returns the frozen record. */
  put(record: DocumentRecord, text?: string): DocumentRecord;
  /** Makes a document's text searchable (a store loading texts after start-up); kept if it already has one. */
  addText(id: number, text: string): void;
  /** Forgets a document. */
  delete(id: number): void;
  list(tenant: string, query: ListQuery): { documents: DocumentRecord[]; total: number };
  /** The remembered upload under a tenant's key, expired or not. */
  keyOf(tenant: string, key: string): UploadKey | undefined;
  keysOf(tenant: string): UploadKey[];
  expiredKeys(now: string): UploadKey[];
  /** Remembers an upload under its key (and lets go of the key's claim). */
  remember(upload: UploadKey): void;
  forget(upload: UploadKey): void;
  /**
   * The store's `claimKey` for a store in one process: the earlier unexpired upload under the key, or the
   * key held by an upload in flight, or a claim on it (released by its `release`, or by `remember`).
   */
  claimKey(tenant: string, key: string, now: string): KeyClaim;
}

const slot = (tenant: string, key: string) => `${tenant}\n${key}`;

/**
 * The record a new document starts as, in every store: `processing`, its first attempt, created now; or
 * the state it was given (a seed).
 */
export function newRecord({ file: _, state, ...document }: NewDocument, id: number, now: string): DocumentRecord {
  const record: DocumentRecord = {
    ...document,
    id,
    status: 'processing',
    attempts: 1,
    error: null,
    created_at: now,
    updated_at: now,
    processed_at: null,
    next_outcome: null,
  };
  if (!state) return record;
  const { text: __, ...fields } = state;
  return { ...record, ...fields };
}

/** A record as its upload's 202 showed it. */
export const asUploaded = (record: DocumentRecord): DocumentRecord => ({
  ...record,
  status: 'processing',
  attempts: 1,
  error: null,
  updated_at: record.created_at,
  processed_at: null,
  next_outcome: null,
});

/** Creates an empty catalog. */
export function createCatalog(): Catalog {
  const byId = new Map<number, DocumentRecord>();
  const tenants = new Map<string, TenantIndex>();
  // The folded filename of every document and text of completed ones, for search; the original text
  // is the store's to keep.
  const foldedNames = new Map<number, string>();
  const foldedTexts = new Map<number, string>();
  const keys = new Map<string, UploadKey>();
  const claims = new Set<string>();

  const indexOf = (tenant: string) => {
    let index = tenants.get(tenant);
    if (!index) {
      index = createTenantIndex();
      tenants.set(tenant, index);
    }
    return index;
  };
  const searchable: Searchable = {
    name: (record) => foldedNames.get(record.id) ?? foldForSearch(record.filename),
    text: (record) => (record.status === 'completed' ? foldedTexts.get(record.id) : undefined),
  };

  // The tenant's unexpired upload under `key`, its documents as its 202 showed them.
  const earlier = (tenant: string, key: string, now: string): EarlierUpload | undefined => {
    const upload = keys.get(slot(tenant, key));
    if (!upload || upload.expires_at <= now) return undefined;
    const documents: DocumentRecord[] = [];
    for (let id = upload.first_id; id < upload.first_id + upload.count; id++) {
      const record = byId.get(id);
      // A document of the upload is gone (a reset raced the key's removal): nothing to replay.
      if (record?.tenant !== tenant) return undefined;
      documents.push(asUploaded(record));
    }
    return { fingerprint: upload.fingerprint, documents };
  };

  return {
    get: (id) => byId.get(id),
    ofTenant(tenant, id) {
      const record = byId.get(id);
      return record?.tenant === tenant ? record : undefined;
    },
    inStatus: (status) => [...byId.values()].filter((r) => r.status === status),
    ofTenantAll: (tenant) => [...byId.values()].filter((r) => r.tenant === tenant),
    put(record, text) {
      const next = Object.freeze({ ...record });
      const before = byId.get(next.id);
      byId.set(next.id, next);
      if (before) indexOf(before.tenant).update(before, next);
      else indexOf(next.tenant).add(next);
      if (before?.filename !== next.filename) foldedNames.set(next.id, foldForSearch(next.filename));
      if (text !== undefined) foldedTexts.set(next.id, foldForSearch(text));
      return next;
    },
    addText(id, text) {
      if (!foldedTexts.has(id)) foldedTexts.set(id, foldForSearch(text));
    },
    delete(id) {
      const record = byId.get(id);
      if (!record) return;
      byId.delete(id);
      foldedNames.delete(id);
      foldedTexts.delete(id);
      tenants.get(record.tenant)?.remove(record);
    },
    list: (tenant, query) => listPage(tenants.get(tenant), query, searchable),
    keyOf: (tenant, key) => keys.get(slot(tenant, key)),
    keysOf: (tenant) => [...keys.values()].filter((u) => u.tenant === tenant),
    expiredKeys: (now) => [...keys.values()].filter((u) => u.expires_at <= now),
    remember(upload) {
      keys.set(slot(upload.tenant, upload.key), upload);
      claims.delete(slot(upload.tenant, upload.key));
    },
    forget(upload) {
      const at = slot(upload.tenant, upload.key);
      if (keys.get(at) === upload) keys.delete(at);
    },
    claimKey(tenant, key, now) {
      const upload = earlier(tenant, key, now);
      if (upload) return { kind: 'earlier', upload };
      const at = slot(tenant, key);
      if (claims.has(at)) return { kind: 'in_use' };
      claims.add(at);
      return { kind: 'claimed', release: async () => void claims.delete(at) };
    },
  };
}
