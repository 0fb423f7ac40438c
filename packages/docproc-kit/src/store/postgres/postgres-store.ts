import { randomBytes, randomUUID } from 'node:crypto';
import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import type { DocumentRecord } from '@docproc-kit/reference/model.js';
import { asUploaded, newRecord } from '@docproc-kit/reference/store/catalog.js';
import type { DocumentStore, EarlierUpload, KeyClaim } from '@docproc-kit/reference/store/document-store.js';
import type { Logger } from 'pino';
import { insertDocuments, insertFiles } from './bulk-insert.js';
import { CONNECT_TIMEOUT_MS, type Database, openDatabase, type Queryable } from './database.js';
import { migrate, reachable } from './migrate.js';
import { listPage, RECORD_COLUMNS, type RecordRow, recordOf } from './records.js';
import { createTenantShare, withTenantShares } from './tenant-share.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** How long an Idempotency-Key claim lives without its holder renewing it (default 30 s). */
  keyLeaseMs?: number;
  /** How often expired keys and dead claims are deleted (default 10 minutes). */
  pruneEveryMs?: number;
  clock?: () => Date;
  logger?: Pick<Logger, 'warn' | 'error'>;
  /** How many of the pool's connections one tenant's requests may hold at once (default: half the pool). */
  tenantShare?: number;
}

const KEY_LEASE_MS = 30_000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

// The tenant's unexpired upload under `key`, its documents as its 202 showed them; undefined when one of
// them is gone (a reset raced the key's removal): nothing to replay.
async function earlierUpload(db: Queryable, tenant: string, key: string, now: string): Promise<EarlierUpload | undefined> {
  const { rows } = await db.query<{ fingerprint: string; document_ids: string[] }>(
    'SELECT fingerprint, document_ids FROM docproc.upload_keys WHERE tenant = $1 AND key = $2 AND expires_at > $3',
    [tenant, key, now],
  );
  const upload = rows[0];
  if (!upload) return undefined;
  const ids = upload.document_ids.map(Number);
  const found = await db.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM docproc.documents WHERE id = ANY($1) AND tenant = $2`, [
    ids,
    tenant,
  ]);
  const byId = new Map(found.rows.map((row) => [Number(row.id), recordOf(row)]));
  const documents: DocumentRecord[] = [];
  for (const id of ids) {
    const record = byId.get(id);
    if (!record) return undefined;
    documents.push(asUploaded(record));
  }
  return { fingerprint: upload.fingerprint, documents };
}

/**
 * Deletes a tenant's documents (their files go with them) and remembered keys within the caller's
 * transaction; resolves to how many documents. The store's removeTenant, and part of a whole reset.
 * @example await db.transaction((tx) => removeTenantRows(tx, tenant));
 */
export async function removeTenantRows(tx: Queryable, tenant: string): Promise<number> {
  const removed = await tx.query('DELETE FROM docproc.documents WHERE tenant = $1', [tenant]);
  await tx.query('DELETE FROM docproc.upload_keys WHERE tenant = $1', [tenant]);
  return removed.rowCount ?? 0;
}

/**
 * The store on PostgreSQL, shared by any number of replicas (see the migration for the tables). What one
 * process kept in memory is in the database: ids come from a sequence (unique and increasing across
 * replicas, never handed out twice); a record's changes are serialised by its row lock, so of concurrent
 * changes through different replicas each is decided on the state the one before left; an Idempotency-Key
 * is claimed by a row with a lease its holder renews, so a replica that dies holding one frees it when
 * the lease runs out. Uploaded bytes are bytea, not large objects: a file is at most tens of MiB (bytea
 * holds 1 GiB), it goes with its row (a delete or a reset leaves no orphan to vacuum) and with an
 * ordinary pg_dump, and it is read whole anyway (the extractors take bytes).
 * @example const store = await createPostgresStore(openDatabase(url)); await store.list(tenant, { page: 1, limit: 20 });
 */
export async function createPostgresStore(db: Database, options: PostgresStoreOptions = {}): Promise<DocumentStore> {
  const { keyLeaseMs = KEY_LEASE_MS, pruneEveryMs = PRUNE_EVERY_MS, clock = () => new Date(), logger } = options;
  const share = createTenantShare(options.tenantShare ?? Math.max(1, Math.floor((db.pool.options.max ?? 10) / 2)), CONNECT_TIMEOUT_MS);
  await db.query('INSERT INTO docproc.meta (tenant_salt) VALUES ($1) ON CONFLICT DO NOTHING', [randomBytes(32).toString('hex')]);
  const salt = await db.query<{ tenant_salt: string }>('SELECT tenant_salt FROM docproc.meta');
  const tenantSalt = salt.rows[0]!.tenant_salt;

  // Writes in flight, for close().
  const writes = new Set<Promise<unknown>>();
  const tracked = <T>(write: Promise<T>): Promise<T> => {
    writes.add(write);
    void write.then(
      () => writes.delete(write),
      () => writes.delete(write),
    );
    return write;
  };
  const renewals = new Set<NodeJS.Timeout>();

  const prune = async () => {
    try {
      await db.query('DELETE FROM docproc.upload_keys WHERE expires_at <= $1', [clock().toISOString()]);
      await db.query("DELETE FROM docproc.key_claims WHERE lease_until < now() - interval '1 hour'");
    } catch (err) {
      logger?.warn({ err }, 'could not prune expired Idempotency-Keys; trying again later');
    }
  };
  const pruner = setInterval(() => void prune(), pruneEveryMs);
  pruner.unref();

  const lease = (ms: number) => `now() + ${Math.trunc(ms)} * interval '1 millisecond'`;

  return withTenantShares(
    {
      tenantSalt,
      async claimKey(tenant, key, now): Promise<KeyClaim> {
        const upload = await earlierUpload(db, tenant, key, now);
        if (upload) return { kind: 'earlier', upload };
        const holder = randomUUID();
        // Claimed, then looked up again in the same transaction: an upload that remembered the key and let go
        // of its claim after the look-up above is found here, not uploaded twice.
        const found = await db.transaction(async (tx) => {
          const claim = await tx.query(
            `INSERT INTO docproc.key_claims AS c (tenant, key, holder, lease_until) VALUES ($1, $2, $3, ${lease(keyLeaseMs)})
           ON CONFLICT (tenant, key) DO UPDATE SET holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until
           WHERE c.lease_until < now()
           RETURNING holder`,
            [tenant, key, holder],
          );
          if (claim.rowCount === 0) return { kind: 'in_use' } as const;
          const earlier = await earlierUpload(tx, tenant, key, now);
          if (!earlier) return undefined;
          await tx.query('DELETE FROM docproc.key_claims WHERE tenant = $1 AND key = $2 AND holder = $3', [tenant, key, holder]);
          return { kind: 'earlier', upload: earlier } as const;
        });
        if (found) return found;
        // The holder renews its lease while the upload is received (a slow client may take minutes).
        const renewal = setInterval(() => {
          db.query(`UPDATE docproc.key_claims SET lease_until = ${lease(keyLeaseMs)} WHERE tenant = $1 AND key = $2 AND holder = $3`, [
            tenant,
            key,
            holder,
          ]).catch((err: unknown) => logger?.warn({ err }, 'could not renew an Idempotency-Key claim'));
        }, keyLeaseMs / 3);
        renewal.unref();
        renewals.add(renewal);
        return {
          kind: 'claimed',
          async release() {
            clearInterval(renewal);
            renewals.delete(renewal);
            await db.query('DELETE FROM docproc.key_claims WHERE tenant = $1 AND key = $2 AND holder = $3', [tenant, key, holder]);
          },
        };
      },
      insert(files, now, remember) {
        return tracked(
          (async () => {
            let ids: number[];
            try {
              // Taken before anything else: concurrent uploads never share an id, and a failed upload's ids
              // are never handed out again.
              const taken = await db.query<{ id: string }>("SELECT nextval('docproc.document_ids') AS id FROM generate_series(1, $1)", [
                files.length,
              ]);
              ids = taken.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
              const records = files.map((file, i) => newRecord(file, ids[i]!, now));
              await db.transaction(async (tx) => {
                // Bytes first (the documents' foreign key is checked at commit), so the tenant's counts row,
                // which the documents' insert locks, is held only briefly.
                await insertFiles(tx, ids, files);
                await insertDocuments(
                  tx,
                  records,
                  files.map((f) => f.state?.text),
                );
                if (remember) {
                  const tenant = records[0]!.tenant;
                  // An expired upload under the key is replaced; the key's claim is let go with the commit.
                  await tx.query(
                    `INSERT INTO docproc.upload_keys (tenant, key, fingerprint, expires_at, document_ids) VALUES ($1, $2, $3, $4, $5)
                   ON CONFLICT (tenant, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, expires_at = EXCLUDED.expires_at,
                     document_ids = EXCLUDED.document_ids`,
                    [tenant, remember.key, remember.fingerprint, remember.expires_at, ids],
                  );
                  await tx.query('DELETE FROM docproc.key_claims WHERE tenant = $1 AND key = $2', [tenant, remember.key]);
                }
              });
              return records.map((r) => Object.freeze(r));
            } finally {
              await Promise.all(files.map((f) => f.file.discard()));
            }
          })(),
        );
      },
      async get(tenant, id) {
        const { rows } = await db.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM docproc.documents WHERE id = $1 AND tenant = $2`, [
          id,
          tenant,
        ]);
        return rows[0] && recordOf(rows[0]);
      },
      async byId(id) {
        const { rows } = await db.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM docproc.documents WHERE id = $1`, [id]);
        return rows[0] && recordOf(rows[0]);
      },
      async inStatus(status) {
        const { rows } = await db.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM docproc.documents WHERE status = $1 ORDER BY id`, [
          status,
        ]);
        return rows.map(recordOf);
      },
      list: (tenant, query) => listPage(db, tenant, query),
      async content(record) {
        if (record.status !== 'completed') return null;
        const { rows } = await db.query<{ content: string | null }>('SELECT content FROM docproc.documents WHERE id = $1', [record.id]);
        return rows[0]?.content ?? '';
      },
      async readFile(id) {
        const { rows } = await db.query<{ bytes: Buffer }>('SELECT bytes FROM docproc.files WHERE id = $1', [id]);
        if (!rows[0]) throw new Error(`document ${id} has no stored file`);
        return rows[0].bytes;
      },
      update(id, decide) {
        return tracked(
          db.transaction(async (tx) => {
            // The row lock orders changes of one record across every replica: each is decided on what the
            // one before left.
            const { rows } = await tx.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM docproc.documents WHERE id = $1 FOR UPDATE`, [id]);
            if (!rows[0]) return undefined;
            const current = recordOf(rows[0]);
            const change = decide(current);
            if (!change) return { record: current, changed: false };
            const next = { ...current, ...change.record, id };
            const text = change.text === undefined ? [] : [change.text, foldForSearch(change.text)];
            await tx.query(
              `UPDATE docproc.documents SET filename = $2, content_type = $3, size_bytes = $4, status = $5, attempts = $6, error = $7,
               created_at = $8, updated_at = $9, processed_at = $10, next_outcome = $11, folded_name = $12
               ${text.length > 0 ? ', content = $13, folded_content = $14' : ''}
             WHERE id = $1`,
              [
                id,
                next.filename,
                next.content_type,
                next.size_bytes,
                next.status,
                next.attempts,
                next.error === null ? null : JSON.stringify(next.error),
                next.created_at,
                next.updated_at,
                next.processed_at,
                next.next_outcome === null ? null : JSON.stringify(next.next_outcome),
                foldForSearch(next.filename),
                ...text,
              ],
            );
            return { record: Object.freeze(next), changed: true };
          }),
        );
      },
      removeTenant(tenant) {
        return tracked(db.transaction((tx) => removeTenantRows(tx, tenant)));
      },
      async close() {
        clearInterval(pruner);
        for (const renewal of renewals) clearInterval(renewal);
        renewals.clear();
        await Promise.allSettled([...writes]);
      },
    },
    share,
  );
}

/**
 * Opens the store alone on its own pool (the tests' way; the server opens every PostgreSQL part on one
 * pool, see postgres-parts.ts): checks the database answers, migrates, and closes the pool with the store.
 * @example const store = await openPostgresStore('postgres://docproc@127.0.0.1:5432/docproc');
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<DocumentStore> {
  const db = openDatabase(url, { logger: options.logger });
  try {
    await reachable(db);
    await migrate(db, url, { info: () => {} });
    const store = await createPostgresStore(db, options);
    let closing: Promise<void> | undefined;
    return {
      ...store,
      close() {
        closing ??= (async () => {
          await store.close();
          await db.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
