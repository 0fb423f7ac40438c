import type { JournalEntry, RequestJournal } from '@docproc-kit/reference/journal/request-journal.js';
import type { Logger } from 'pino';
import type { Database } from './database.js';

/** How often a replica writes the requests it answered since the last write. */
export const JOURNAL_FLUSH_MS = 100;
// What a replica holds while the database is away; past it, the oldest entries are dropped.
const MAX_BUFFERED = 10_000;

/**
 * The entry as jsonb can hold it: PostgreSQL's jsonb refuses U+0000 in any string, and a request may carry
 * one (a `search` of `%00`, which the service answers 400). Left in, it would fail the whole batch's write
 * again at every flush, and no later request of any tenant would ever reach the journal. Each NUL, in a
 * value or a name, is stored as U+FFFD.
 */
export function storableEntry<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value) as T;
  if (Array.isArray(value)) return value.map(storableEntry) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, v]) => [storableEntry(name), storableEntry(v)])) as T;
  return value;
}

/**
 * The request journal in the shared database (docproc.request_journal), so a tenant's requests show on
 * every replica whichever answered them. Recording never waits on the database: entries are kept in
 * memory and written every {@link JOURNAL_FLUSH_MS} ms in one statement, then each tenant written to is
 * pruned to `capacity`. A listing writes this replica's waiting entries first; another replica's show
 * within its next write. While the database is away, entries wait (up to 10,000, the oldest dropped first).
 * @example const journal = createPostgresJournal(db, { capacity: 500, logger }); journal.record(tenant, entry);
 */
export function createPostgresJournal(
  db: Database,
  { capacity, logger }: { capacity: number; logger?: Pick<Logger, 'warn'> },
): RequestJournal {
  let waiting: Array<{ tenant: string; entry: JournalEntry }> = [];
  let writing: Promise<void> | undefined;
  let warned = false;

  const write = async (batch: Array<{ tenant: string; entry: JournalEntry }>) => {
    const tenants = batch.map((b) => b.tenant);
    await db.query(
      'INSERT INTO docproc.request_journal (tenant, started_ms, entry) SELECT * FROM unnest($1::text[], $2::bigint[], $3::jsonb[])',
      [tenants, batch.map((b) => b.entry.started_ms), batch.map((b) => JSON.stringify(storableEntry(b.entry)))],
    );
    await db.query(
      `DELETE FROM docproc.request_journal j USING (
         SELECT seq FROM (
           SELECT seq, row_number() OVER (PARTITION BY tenant ORDER BY seq DESC) AS n
           FROM docproc.request_journal WHERE tenant = ANY($1)
         ) ranked WHERE n > $2
       ) old WHERE j.seq = old.seq`,
      [[...new Set(tenants)], capacity],
    );
  };

  const flush = (): Promise<void> => {
    if (writing) return writing.then(flush);
    if (waiting.length === 0) return Promise.resolve();
    const batch = waiting;
    waiting = [];
    writing = write(batch)
      .then(
        () => {
          warned = false;
        },
        (err: unknown) => {
          // Kept for the next write, newest last, within bounds.
          waiting = [...batch, ...waiting].slice(-MAX_BUFFERED);
          if (!warned) logger?.warn({ err: { message: (err as Error).message } }, 'could not write the request journal; trying again');
          warned = true;
        },
      )
      .finally(() => {
        writing = undefined;
      });
    return writing;
  };
  const timer = setInterval(() => void flush(), JOURNAL_FLUSH_MS);
  timer.unref();

  return {
    capacity,
    record(tenant, entry) {
      if (capacity === 0) return;
      waiting.push({ tenant, entry });
      if (waiting.length > MAX_BUFFERED) waiting.shift();
    },
    async list(tenant) {
      await flush();
      const { rows } = await db.query<{ entry: JournalEntry }>(
        'SELECT entry FROM docproc.request_journal WHERE tenant = $1 ORDER BY started_ms DESC, seq DESC LIMIT $2',
        [tenant, capacity],
      );
      return rows.map((row) => row.entry);
    },
    async clear(tenant) {
      waiting = waiting.filter((w) => w.tenant !== tenant);
      await writing;
      await db.query('DELETE FROM docproc.request_journal WHERE tenant = $1', [tenant]);
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
