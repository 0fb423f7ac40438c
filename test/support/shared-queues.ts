import { openPgBossRunQueue, type PgBossRunQueue } from 'docproc-kit/processing/queue/pg-boss-run-queue.js';
import { type Database, openDatabase } from 'docproc-kit/store/postgres/database.js';
import { migrate } from 'docproc-kit/store/postgres/migrate.js';
import { type Notifications, openNotifications } from 'docproc-kit/store/postgres/notifications.js';
import { pino } from 'pino';

/** Options of {@link openSharedQueues}. */
export interface SharedQueuesOptions {
  leaseMs?: number;
  leaseCheckEveryS?: number;
}

/**
 * Run queues of as many replicas as `concurrencies` has entries, on one database (migrated here), each on
 * its own pool and listening connection, as separate processes would be.
 * @example const { queues, close } = await openSharedQueues(url, [1, 1]);
 */
export async function openSharedQueues(
  url: string,
  concurrencies: number[],
  { leaseMs = 60_000, leaseCheckEveryS = 1 }: SharedQueuesOptions = {},
): Promise<{ queues: PgBossRunQueue[]; close: () => Promise<void> }> {
  const logger = pino({ level: 'silent' });
  const parts: Array<{ db: Database; notifications: Notifications }> = [];
  const close = async () => {
    for (const { db, notifications } of parts.splice(0)) {
      await notifications.close();
      await db.close();
    }
  };
  try {
    const queues: PgBossRunQueue[] = [];
    for (const [i, concurrency] of concurrencies.entries()) {
      const db = openDatabase(url);
      const notifications = await openNotifications(url);
      parts.push({ db, notifications });
      if (i === 0) await migrate(db, url, logger);
      queues.push(await openPgBossRunQueue({ db, notifications, concurrency, leaseMs, leaseCheckEveryS, pollMs: 200, logger }));
    }
    return { queues, close };
  } catch (error) {
    await close();
    throw error;
  }
}
