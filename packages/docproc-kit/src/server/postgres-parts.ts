import type { FaultRegistry } from '@docproc-kit/reference/controls/faults.js';
import type { ProcessingSettings, SettingsRegistry } from '@docproc-kit/reference/processing/settings.js';
import type { DocumentStore } from '@docproc-kit/reference/store/document-store.js';
import type { Logger } from 'pino';
import { openPgBossRunQueue, type PgBossRunQueue } from '../processing/queue/pg-boss-run-queue.js';
import { type Database, openDatabase } from '../store/postgres/database.js';
import { migrate, reachable } from '../store/postgres/migrate.js';
import { type Notifications, openNotifications } from '../store/postgres/notifications.js';
import { createPostgresStore, removeTenantRows } from '../store/postgres/postgres-store.js';
import { createSharedControls } from '../store/postgres/shared-controls.js';

// The advisory lock of exclusively(): a key of its own (node-pg-migrate, pg-boss and the queue's set-up use others).
const EXCLUSIVE_LOCK = 0x646f6373;

/** Options of {@link openPostgresParts}. */
export interface PostgresPartsOptions {
  /** Runs at once in this replica. */
  concurrency: number;
  /** How long a started run belongs to its replica before another may take it over. */
  runLeaseMs: number;
  /** The processing settings of a tenant that changed none. */
  defaults: ProcessingSettings;
  logger: Logger;
  clock?: () => Date;
}

/** Everything a replica keeps in the shared database, on one pool, and how to let go of it. */
export interface PostgresParts {
  db: Database;
  store: DocumentStore;
  queue: PgBossRunQueue;
  settings: SettingsRegistry;
  faults: FaultRegistry;
  /** Resets a tenant whole (documents, settings, faults) in one transaction; see SharedControls. */
  resetTenant(tenant: string): Promise<number>;
  /** `host:port/database`, for people (never the password). */
  where: string;
  /** Runs `work` while no other replica runs work under this function (a session advisory lock). */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /** Closes the listening connection and the pool (after the processor and the store were stopped). */
  close(): Promise<void>;
}

/**
 * Opens the PostgreSQL side of a replica: checks the database answers (a `DatabaseRefusal` naming host
 * and database otherwise), migrates its schema (and pg-boss its own), then opens the store, the shared
 * mock-control registries and the run queue on one pool and one listening connection.
 * @example const parts = await openPostgresParts(url, { concurrency: 2, runLeaseMs: 120_000, defaults, logger });
 */
export async function openPostgresParts(url: string, options: PostgresPartsOptions): Promise<PostgresParts> {
  const { logger } = options;
  const db = openDatabase(url, { logger: logger.child({ component: 'database' }) });
  let notifications: Notifications | undefined;
  let store: DocumentStore | undefined;
  try {
    await reachable(db);
    await migrate(db, url, logger);
    notifications = await openNotifications(url, logger.child({ component: 'database' }));
    store = await createPostgresStore(db, { clock: options.clock, logger: logger.child({ component: 'store' }) });
    const { settings, faults, resetTenant } = await createSharedControls(db, notifications, options.defaults);
    const queue = await openPgBossRunQueue({
      db,
      notifications,
      concurrency: options.concurrency,
      leaseMs: options.runLeaseMs,
      logger: logger.child({ component: 'queue' }),
    });
    const opened = notifications;
    return {
      db,
      store,
      queue,
      settings,
      faults,
      resetTenant: (tenant) => resetTenant(tenant, (tx) => removeTenantRows(tx, tenant)),
      where: db.where,
      exclusively: (work) => db.exclusively(EXCLUSIVE_LOCK, work),
      async close() {
        await opened.close();
        await db.close();
      },
    };
  } catch (error) {
    await store?.close();
    await notifications?.close();
    await db.close();
    throw error;
  }
}
