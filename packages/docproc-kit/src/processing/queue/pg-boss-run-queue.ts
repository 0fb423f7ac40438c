import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { RunJob, RunQueue } from '@docproc-kit/reference/processing/queue/run-queue.js';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../../store/postgres/database.js';
import { DatabaseRefusal } from '../../store/postgres/migrate.js';
import type { Notifications } from '../../store/postgres/notifications.js';
import { nextTags, runStarted } from './fair-tags.js';

/** The schema pg-boss keeps its tables in (it creates and migrates them itself). */
export const QUEUE_SCHEMA = 'docproc_queue';
const QUEUE = 'docproc-runs';
const CHANNEL = 'docproc_runs';
// An advisory lock id of this module's own (node-pg-migrate and pg-boss use others).
const QUEUE_SETUP_LOCK = 0x646f6370;
// pg-boss's own schema version, which its start-up migrates to.
const BOSS_SCHEMA_VERSION = (createRequire(import.meta.url)('pg-boss/version.json') as { schema: number }).schema;

/** Options of {@link openPgBossRunQueue}. */
export interface PgBossRunQueueOptions {
  db: Database;
  notifications: Notifications;
  /** Runs at once in this replica. */
  concurrency: number;
  /**
   * How long a started run belongs to its replica: past it, the run is handed to another replica (its
   * replica died). Longer than the longest run, so a slow run is not done twice.
   */
  leaseMs: number;
  /** How often one of the replicas looks for runs whose lease ran out (default: a tenth of the lease, 1 to 10 s). */
  leaseCheckEveryS?: number;
  /** How often an idle replica looks for runs it was not told about (default 1 s). */
  pollMs?: number;
  logger?: Pick<Logger, 'warn' | 'error'>;
}

/** The shared run queue, and what only tests need of it. */
export interface PgBossRunQueue extends RunQueue {
  /** Stops like a process that was killed: runs in progress are not handed back (their lease will run out). */
  abandon(): Promise<void>;
}

/** A run's job id: the same run queued twice (start-up recovery on every replica) is one job. */
function jobId({ documentId, attempt }: RunJob): string {
  const hex = createHash('sha256').update(`docproc-run:${documentId}:${attempt}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function refuseNewerSchema(db: Database): Promise<void> {
  const { rows } = await db.query<{ table: string | null }>('SELECT to_regclass($1)::text AS table', [`${QUEUE_SCHEMA}.version`]);
  if (!rows[0]?.table) return;
  const version = await db.query<{ version: number }>(`SELECT version FROM ${QUEUE_SCHEMA}.version`);
  const found = version.rows[0]?.version ?? 0;
  if (found > BOSS_SCHEMA_VERSION) {
    throw new DatabaseRefusal(
      `the database ${db.where} has a newer job queue schema (pg-boss schema ${found}) than this version of docproc knows (${BOSS_SCHEMA_VERSION}). ` +
        'Run the newer docproc against it, or give this one another database.',
    );
  }
}

/**
 * The run queue shared by every replica of one database, on pg-boss (its jobs table, its `FOR UPDATE SKIP
 * LOCKED` fetch, its delayed start and its lease: a started job whose `expireIn` passes is failed by the
 * maintenance one replica runs, and retried, so a run claimed by a replica that died is taken over).
 * Tenants take turns across replicas: each run gets a tag (fair-tags.ts) that pg-boss's priority orders
 * by, so a newly queued tenant's run goes ahead of another tenant's backlog. Each replica fetches up to
 * its `concurrency` runs; it is woken at once by its own enqueues, by a NOTIFY from the other replicas'
 * and when a delay runs out, and looks again every `pollMs` otherwise. A run whose `work` settles is
 * completed; one in progress when the queue stops is handed back at once (failed, so retried) for
 * another replica.
 * @example const queue = await openPgBossRunQueue({ db, notifications, concurrency: 2, leaseMs: 120_000 }); queue.start(run);
 */
export async function openPgBossRunQueue(options: PgBossRunQueueOptions): Promise<PgBossRunQueue> {
  const { db, notifications, concurrency, leaseMs, pollMs = 1_000, logger } = options;
  const leaseCheckEveryS = options.leaseCheckEveryS ?? Math.min(10, Math.max(1, Math.round(leaseMs / 10_000)));
  await refuseNewerSchema(db);
  const boss = new PgBoss({
    db: { executeSql: (text, values) => db.pool.query(text, values) },
    schema: QUEUE_SCHEMA,
    migrate: true,
    supervise: true,
    schedule: false,
    maintenanceIntervalSeconds: leaseCheckEveryS,
  });
  boss.on('error', (err) => logger?.warn({ err: { message: err.message } }, 'job queue maintenance failed; it runs again later'));
  const leaseS = Math.max(1, Math.ceil(leaseMs / 1000));
  // pg-boss 10 creates a queue's partition without a lock of its own, and replicas starting at once
  // deadlock on it: one replica at a time sets the queue up, the others then find it there.
  await db.exclusively(QUEUE_SETUP_LOCK, async () => {
    await boss.start();
    try {
      if (!(await boss.getQueue(QUEUE))) {
        await boss.createQueue(QUEUE, { name: QUEUE, policy: 'standard', retryLimit: 1_000_000, retryDelay: 0, expireInSeconds: leaseS });
      }
    } catch (error) {
      // Started but not set up: nothing else would stop it.
      await boss.stop({ graceful: false, close: false, wait: true }).catch(() => {});
      throw error;
    }
  });

  let work: ((job: RunJob) => Promise<void>) | undefined;
  let stopped = false;
  let running = 0;
  const inProgress = new Map<string, Promise<void>>();
  const handedBack = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let pumping = false;
  let again = false;

  const later = (ms: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void pump();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  const begin = (job: PgBoss.Job<RunJob & { tag: number }>, run: (job: RunJob) => Promise<void>) => {
    running++;
    const { documentId, tenant, attempt } = job.data;
    const done = (async () => {
      try {
        await run({ documentId, tenant, attempt });
      } catch {
        // The processor ends every run itself; a rejection could only be its bug, and the run is over.
      }
      // Handed back by stop(): it may be another replica's run by now, and is not this one's to end.
      if (handedBack.has(job.id)) return;
      try {
        await boss.complete(QUEUE, job.id);
      } catch (err) {
        // The lease runs out and the run is tried again: it finds its document finished and does nothing.
        logger?.warn({ err, documentId }, 'could not mark a run done in the job queue');
      }
    })();
    inProgress.set(job.id, done);
    void done.finally(() => {
      inProgress.delete(job.id);
      running--;
      void pump();
    });
  };

  // Fetches runs for the free slots until none is ready; one pump at a time (a call meanwhile makes it go round again).
  const pump = async (): Promise<void> => {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        while (!stopped && work && running < concurrency) {
          const jobs = await boss.fetch<RunJob & { tag: number }>(QUEUE, { batchSize: concurrency - running });
          if (jobs.length === 0) break;
          // Fairness bookkeeping only: the fetched runs are active now and must start whatever it says.
          await runStarted(db, Math.max(...jobs.map((j) => j.data.tag))).catch((err: Error) =>
            logger?.warn({ err: { message: err.message } }, 'could not record where the queue stands; the runs start anyway'),
          );
          for (const job of jobs) {
            if (stopped) await boss.fail(QUEUE, job.id, { message: 'handed back: the replica stopped' });
            else begin(job, work);
          }
        }
      } while (again && !stopped);
    } catch (err) {
      logger?.warn({ err: { message: (err as Error).message } }, 'could not fetch runs from the job queue; trying again shortly');
    } finally {
      pumping = false;
    }
  };

  const poller = setInterval(() => void pump(), pollMs);
  poller.unref();
  await notifications.listen(CHANNEL, (payload) => {
    // Another replica queued runs (after a delay, in ms), or notifications were missed: look now.
    const delay = Number(payload ?? 0);
    void pump();
    if (delay > 0) later(delay + 20);
  });

  const halt = async () => {
    stopped = true;
    clearInterval(poller);
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };

  return {
    async enqueue(jobs, delayMs) {
      const byTenant = new Map<string, RunJob[]>();
      for (const job of jobs) byTenant.set(job.tenant, [...(byTenant.get(job.tenant) ?? []), job]);
      let inserted = 0;
      for (const [tenant, all] of byTenant) {
        // A run already queued (start-up recovery and the sweep queue every stranded run again) keeps its
        // place: only new runs take places in line, so a tenant's line is not pushed back.
        const { rows } = await db.query<{ id: string }>(
          `SELECT id::text FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[])`,
          [QUEUE, all.map(jobId)],
        );
        const queued = new Set(rows.map((r) => r.id));
        const mine = all.filter((job) => !queued.has(jobId(job)));
        if (mine.length === 0) continue;
        inserted += mine.length;
        const tags = await nextTags(db, tenant, mine.length);
        await boss.insert(
          mine.map((job, i) => ({
            id: jobId(job),
            name: QUEUE,
            data: { ...job, tag: tags[i]! },
            priority: -tags[i]!,
            // Relative to the database's clock, which every replica shares.
            startAfter: String(Math.max(0, delayMs) / 1000),
            expireInSeconds: leaseS,
          })),
        );
      }
      // Runs already queued (the sweep finds each stranded run again every round) wake no replica.
      if (inserted === 0) return;
      await db.query('SELECT pg_notify($1, $2)', [CHANNEL, String(Math.max(0, delayMs))]);
      if (delayMs > 0) later(delayMs + 20);
      else void pump();
    },
    start(handler) {
      work = handler;
      void pump();
    },
    async stop() {
      await halt();
      // Runs still in progress here (the processor abandons them, an extraction may take a minute) are
      // handed back at once: failed, so retried at once by another replica rather than after the lease.
      const ids = [...inProgress.keys()];
      for (const id of ids) handedBack.add(id);
      if (ids.length > 0) {
        await boss.fail(QUEUE, ids).catch((err: unknown) => {
          logger?.warn({ err }, 'could not hand back runs in progress; their lease will run out');
        });
      }
      await boss.stop({ graceful: false, close: false, wait: true });
    },
    async abandon() {
      await halt();
      await boss.stop({ graceful: false, close: false, wait: true });
    },
  };
}
