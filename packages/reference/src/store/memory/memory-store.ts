import type { DocumentRecord } from '../../model.js';
import { createCatalog, newRecord, type UploadKey } from '../catalog.js';
import type { DocumentStore } from '../document-store.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** The secret tenant ids are derived with (default: random, so ids differ between stores). */
  tenantSalt?: string;
}

function randomSalt(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A store that keeps everything in memory, gone when the process ends: for tests where durability is
 * not the point, and for the mock that runs inside a browser or a test process (browser-safe: no Node
 * module is imported).
 * @example const store = createMemoryStore(); await store.insert(files, new Date().toISOString());
 */
export function createMemoryStore({ tenantSalt = randomSalt() }: MemoryStoreOptions = {}): DocumentStore {
  const catalog = createCatalog();
  const bytesById = new Map<number, Uint8Array>();
  const texts = new Map<number, string>();
  let nextId = 1;

  return {
    tenantSalt,
    claimKey: async (tenant, key, now) => catalog.claimKey(tenant, key, now),
    async insert(files, now, remember) {
      // Taken before anything is awaited, so concurrent uploads never share an id, and never handed
      // out again even if this upload fails.
      const ids = files.map(() => nextId++);
      let contents: Uint8Array[];
      try {
        contents = await Promise.all(files.map((f) => f.file.bytes()));
      } finally {
        await Promise.all(files.map((f) => f.file.discard()));
      }
      const records = files.map((file, i): DocumentRecord => {
        bytesById.set(ids[i]!, contents[i]!);
        const text = file.state?.text;
        if (text !== undefined) texts.set(ids[i]!, text);
        return catalog.put(newRecord(file, ids[i]!, now), text);
      });
      const tenant = records[0]!.tenant;
      if (remember) {
        const replaced = catalog.keyOf(tenant, remember.key);
        if (replaced) catalog.forget(replaced);
        const upload: UploadKey = { tenant, ...remember, first_id: ids[0]!, count: ids.length };
        catalog.remember(upload);
      }
      return records;
    },
    get: async (tenant, id) => catalog.ofTenant(tenant, id),
    byId: async (id) => catalog.get(id),
    inStatus: async (status) => catalog.inStatus(status),
    list: async (tenant, query) => catalog.list(tenant, query),
    content: async (record) => (record.status === 'completed' ? (texts.get(record.id) ?? '') : null),
    async readFile(id) {
      const bytes = bytesById.get(id);
      if (!bytes) throw new Error(`document ${id} has no stored file`);
      return bytes;
    },
    async update(id, decide) {
      const current = catalog.get(id);
      if (!current) return undefined;
      const change = decide(current);
      if (!change) return { record: current, changed: false };
      if (change.text !== undefined) texts.set(id, change.text);
      return { record: catalog.put({ ...current, ...change.record, id }, change.text), changed: true };
    },
    async removeTenant(tenant) {
      const removed = catalog.ofTenantAll(tenant);
      for (const record of removed) {
        catalog.delete(record.id);
        bytesById.delete(record.id);
        texts.delete(record.id);
      }
      for (const upload of catalog.keysOf(tenant)) catalog.forget(upload);
      return removed.length;
    },
    async close() {},
  };
}
