/** A file part of an upload, as the journal keeps it: never its bytes. */
export interface JournalPart {
  /** The multipart field name. */
  name: string;
  filename: string;
  size: number;
}

/** One answered request of a tenant, as `GET /_mock/requests` shows it (see @docproc-kit/contract's openapi/mock-controls.yaml). */
export interface JournalEntry {
  request_id: string;
  /** When the request arrived, in ms since the epoch (shown as ISO 8601). */
  started_ms: number;
  method: string;
  /** As sent (still percent-encoded), without the query. */
  path: string;
  /** Query parameters, secret-looking values redacted; a repeated one is an array. */
  query: Record<string, string | string[]>;
  /** The contract's operationId, or null (a mock control, or a path no operation has). */
  operation: string | null;
  status: number;
  /** The problem's `code` of an error answer, else null. */
  code: string | null;
  /** The problem's `detail` of an error answer, else null. */
  detail: string | null;
  /** Time from the request's arrival at the API to its answer. */
  duration_ms: number;
  /** The accepted files of an upload, in order. */
  parts: JournalPart[];
}

/** An entry as `GET /_mock/requests` shows it: its arrival as ISO 8601. */
export function entryJson({ started_ms, ...rest }: JournalEntry) {
  const { request_id, ...more } = rest;
  return { request_id, started_at: new Date(started_ms).toISOString(), ...more };
}

/** Which entries to list: all by default. */
export interface JournalFilter {
  /** An exact status, or a class: 4 for 4xx. */
  status?: { exact: number } | { class: number };
  operation?: string;
}

/**
 * Each tenant's last answered requests, bounded: the port between the API (which records every answer)
 * and where they are kept (memory in this process, or a table the replicas share).
 */
export interface RequestJournal {
  /** How many entries a tenant keeps (the oldest go first); 0 keeps none. */
  readonly capacity: number;
  /** Keeps an answered request; never waits on storage and never throws. */
  record(tenant: string, entry: JournalEntry): void;
  /** The tenant's entries, newest first. */
  list(tenant: string): Promise<JournalEntry[]>;
  /** Forgets the tenant's entries (a reset). */
  clear(tenant: string): Promise<void>;
  /** Writes what is still waiting to be written and stops. */
  close(): Promise<void>;
}

/** How many requests a tenant's journal keeps unless told otherwise. */
export const DEFAULT_JOURNAL_SIZE = 500;
/** The most a tenant's journal may keep: a listing is read whole. */
export const MAX_JOURNAL_SIZE = 10_000;

/** Whether an entry passes a filter. */
export function matches(entry: JournalEntry, { status, operation }: JournalFilter): boolean {
  if (operation !== undefined && entry.operation !== operation) return false;
  if (status === undefined) return true;
  return 'exact' in status ? entry.status === status.exact : Math.floor(entry.status / 100) === status.class;
}

/**
 * The journal in memory: a ring of `capacity` entries per tenant, gone when the process stops. What the
 * server keeps without a database, and what the in-process mocks keep. Browser-safe.
 * @example const journal = createMemoryJournal({ capacity: 500 }); journal.record('t1', entry); await journal.list('t1');
 */
export function createMemoryJournal({ capacity = DEFAULT_JOURNAL_SIZE }: { capacity?: number } = {}): RequestJournal {
  // Per tenant: the ring, and where the next entry goes.
  const rings = new Map<string, { entries: JournalEntry[]; next: number }>();
  return {
    capacity,
    record(tenant, entry) {
      if (capacity === 0) return;
      let ring = rings.get(tenant);
      if (!ring) {
        ring = { entries: [], next: 0 };
        rings.set(tenant, ring);
      }
      if (ring.entries.length < capacity) ring.entries.push(entry);
      else ring.entries[ring.next] = entry;
      ring.next = (ring.next + 1) % capacity;
    },
    async list(tenant) {
      const ring = rings.get(tenant);
      if (!ring) return [];
      const { entries, next } = ring;
      const newestFirst: JournalEntry[] = [];
      for (let i = 1; i <= entries.length; i++) newestFirst.push(entries[(next - i + entries.length) % entries.length]!);
      return newestFirst;
    },
    async clear(tenant) {
      rings.delete(tenant);
    },
    async close() {},
  };
}
