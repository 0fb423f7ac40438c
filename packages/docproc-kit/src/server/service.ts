import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import { createKeyring, DEV_API_KEY } from '@docproc-kit/reference/api/keys.js';
import { createFaults, type FaultRegistry } from '@docproc-kit/reference/controls/faults.js';
import { createReferenceCore } from '@docproc-kit/reference/core.js';
import { fetchApi } from '@docproc-kit/reference/http/fetch-api.js';
import type { MinUploadRate } from '@docproc-kit/reference/http/upload/received-upload.js';
import { createMemoryJournal, DEFAULT_JOURNAL_SIZE, type RequestJournal } from '@docproc-kit/reference/journal/request-journal.js';
import {
  DEFAULT_EXTRACTION_LIMITS,
  type ExtractionLimits,
  type Extractor,
  RUN_BUDGET_GRACE_MS,
} from '@docproc-kit/reference/processing/extraction.js';
import type { Processor } from '@docproc-kit/reference/processing/processor.js';
import { createLocalRunQueue } from '@docproc-kit/reference/processing/queue/local-run-queue.js';
import type { RunQueue } from '@docproc-kit/reference/processing/queue/run-queue.js';
import {
  createRandom,
  createSettings,
  DEFAULT_CONCURRENCY,
  DEFAULT_PROCESSING_DELAY_MS,
  type ProcessingSettings,
  type SettingsRegistry,
} from '@docproc-kit/reference/processing/settings.js';
import type { DocumentStore } from '@docproc-kit/reference/store/document-store.js';
import { createMemoryStore } from '@docproc-kit/reference/store/memory/memory-store.js';
import type { Logger } from 'pino';
import { EXTRACTION_START_TIMEOUT_MS } from '../extraction/extraction-pool.js';
import { createExtractor } from '../extraction/extractor.js';
import { createLogger } from '../http/logging.js';
import { DEFAULT_MIN_UPLOAD_RATE } from '../http/upload/min-rate.js';
import { createUploadReceiver } from '../http/upload/multipart-receiver.js';
import { prepareScratchDir, type ScratchDir } from '../http/upload/scratch-dir.js';
import type { MetricSources, Metrics } from '../ops/metrics.js';
import { createOpsRoutes, type ReadinessReport } from '../ops/ops-routes.js';
import { openLowdbStore } from '../store/lowdb/lowdb-store.js';
import type { Database } from '../store/postgres/database.js';
import { createApp } from './app.js';
import { saltedTenants } from './auth.js';
import { seedFromFile } from './seed-file.js';

/** Options of the reference service; only `dataDir` is required. */
export interface ReferenceServiceOptions {
  /**
   * With the lowdb store (the default), where documents are kept (`db.json`, `records/`, `files/`,
   * `texts/`); with any store, `tmp/` inside it receives uploads in flight.
   */
  dataDir: string;
  /** Where documents live: `lowdb`, on disk in `dataDir` (default), or `memory` (gone when the service stops). */
  store?: 'lowdb' | 'memory';
  /**
   * A PostgreSQL database shared by any number of replicas: documents, the run queue and the mock controls'
   * settings and faults live there (`store` is then ignored, and `dataDir` only receives uploads in flight).
   */
  databaseUrl?: string;
  /** With `databaseUrl`: how long a started run belongs to its replica before another takes it over (default: the run budget + 30 s). */
  runLeaseMs?: number;
  /** With `databaseUrl`: how often this replica looks for documents a dead replica stored and never queued (default 10 s). */
  strandedSweepMs?: number;
  /** Accepted keys; empty or absent means the dev key `docproc-dev-key`. */
  apiKeys?: string[];
  /** Minimum time a run stays processing (default 1500 ms). */
  processingDelayMs?: number;
  /** Share of otherwise good runs that fail with processing_error (default 0). */
  failureRate?: number;
  /** Makes simulated failures reproducible. */
  seed?: number;
  maxFileBytes?: number;
  maxFiles?: number;
  /** How fast an upload body must keep arriving (default 1 KiB/s over 10 s). */
  minUploadRate?: Partial<MinUploadRate>;
  /** Allowed browser origins (default any). */
  corsOrigins?: string[];
  /** Concurrent extractions (default 2). */
  concurrency?: number;
  extraction?: Partial<ExtractionLimits>;
  /** A JSON file of documents to create at start-up for tenants that have none (see seeding.ts). */
  seedFile?: string;
  /** How many answered requests each tenant's journal keeps (`GET /_mock/requests`; default 500, 0: none). */
  journalSize?: number;
  /** The Prometheus metrics to feed (see ops/metrics.ts); none when absent. */
  metrics?: Metrics;
  /** Whether `/metrics` is answered on the API's port (default true when `metrics` is given; false when it has a port of its own). */
  metricsOnApiPort?: boolean;
  logger?: Logger;
  clock?: () => Date;
}

/** A running service: the app plus what it was built from, and a way to stop it. */
export interface ReferenceService {
  /** The server's request handler (Node's HTTP server calls it; see app.ts). */
  app: RequestListener;
  /** The same service as a `fetch` function: its API in this process, no port, no Express (tests). */
  fetch: (request: Request) => Promise<Response>;
  store: DocumentStore;
  /** Where the documents are: the data dir of the lowdb store, `memory`, or the PostgreSQL database (no password). */
  storeLocation: string;
  processor: Processor;
  settings: SettingsRegistry;
  extractor: Extractor;
  logger: Logger;
  /** The keys the service accepts. */
  apiKeys: string[];
  /** How many stranded `processing` documents start-up picked up again. */
  recovered: number;
  /** How many documents the seed file created at start-up. */
  seeded: number;
  /** This process's own folder for uploads in flight, under the data dir's tmp/ (see scratch-dir.ts). */
  scratchDir: string;
  /** Whether the store and the queue can be reached now (`GET /readyz`). */
  ready(): Promise<ReadinessReport>;
  /** What the metrics read on each scrape, but for the HTTP server's connections (see ops/metrics.ts). */
  metricSources: MetricSources;
  /** The operator's endpoints, for a port of their own (`--metrics-port`). */
  ops: ReturnType<typeof createOpsRoutes>;
  /** Stops processing, waits for writes in flight, releases the data dir. */
  close(): Promise<void>;
}

/** Where a replica keeps its state: the store, and with a database also the run queue and the controls' registries. */
interface StateParts {
  store: DocumentStore;
  location: string;
  queue?: RunQueue;
  settings?: SettingsRegistry;
  faults?: FaultRegistry;
  /** Resets a tenant whole in one write (with a database); otherwise the controls reset part by part. */
  resetTenant?: (tenant: string) => Promise<number>;
  /** Lets go of what the parts hold beyond the store (a database's pool). */
  close?: () => Promise<void>;
  /** Runs work no other replica runs at the same time (start-up seeding). */
  exclusively?: <T>(work: () => Promise<T>) => Promise<T>;
  /** With a database: the pool (readiness, the metrics) and the journal kept in it. */
  db?: Database;
}

// The store the options choose (and with a database, the shared queue and registries), and where its documents are, for people.
async function openStore(
  options: ReferenceServiceOptions,
  logger: Logger,
  clock: () => Date,
  shared: { concurrency: number; runLeaseMs: number; defaults: ProcessingSettings },
): Promise<StateParts> {
  if (options.databaseUrl) {
    // pg and pg-boss load only here: a server on the embedded store never pays for them (about 60 ms at start-up).
    const { openPostgresParts } = await import('./postgres-parts.js');
    const parts = await openPostgresParts(options.databaseUrl, { ...shared, logger, clock });
    return { ...parts, location: `PostgreSQL ${parts.where}` };
  }
  if (options.store === 'memory') return { store: createMemoryStore(), location: 'memory (gone when the server stops)' };
  const store = await openLowdbStore(options.dataDir, { logger: logger.child({ component: 'store' }), clock });
  return { store, location: store.layout.root };
}

// How long a readiness check waits for the database: a probe must answer within a second.
const READY_WAIT_MS = 800;
const STATUSES = ['processing', 'completed', 'failed'] as const;

// Readiness: with a database, whether it answers (store, queue and controls all live in it); else the
// store is a file or memory in this process, and ready while the process is.
function readiness(db: Database | undefined): () => Promise<ReadinessReport> {
  if (!db) return async () => ({ ready: true, checks: { store: 'ok', queue: 'ok' } });
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const answer = await Promise.race([
      db.query('SELECT 1').then(
        () => 'ok',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`the database ${db.where} did not answer within ${READY_WAIT_MS} ms`), READY_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    return { ready: answer === 'ok', checks: { store: answer, queue: answer } };
  };
}

// What the metrics read on a scrape: with a database, counted there (every replica's); else in this process.
function metricSources(db: Database | undefined, store: DocumentStore, localQueue: { depth(): number } | undefined): MetricSources {
  if (!db) {
    return {
      documentsByStatus: async () =>
        Object.fromEntries(await Promise.all(STATUSES.map(async (status) => [status, (await store.inStatus(status)).length] as const))),
      queueDepth: () => localQueue?.depth() ?? 0,
    };
  }
  return {
    async documentsByStatus() {
      const { rows } = await db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM docproc.documents GROUP BY status',
      );
      return Object.fromEntries(STATUSES.map((status) => [status, rows.find((r) => r.status === status)?.n ?? 0]));
    },
    async queueDepth() {
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM docproc_queue.job WHERE name = 'docproc-runs' AND state IN ('created', 'retry')",
      );
      return rows[0]?.n ?? 0;
    },
    pool: db.pool,
  };
}

// How long past its run budget a started run still belongs to its replica (with a database).
const RUN_LEASE_GRACE_MS = 30_000;
// How often a replica looks for documents left with no queued run (with a database), unless told.
const STRANDED_SWEEP_MS = 10_000;

/**
 * Opens the store and builds the processor and the app; documents a previous process left
 * `processing` are picked up again. Throws (naming the file) when the db file is damaged.
 * @example const service = await createReferenceService({ dataDir: '.docproc' }); service.app.listen(4010);
 */
export async function createReferenceService(options: ReferenceServiceOptions): Promise<ReferenceService> {
  const logger = options.logger ?? createLogger({ level: 'info' });
  const clock = options.clock ?? (() => new Date());
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const limits = {
    maxFileBytes: options.maxFileBytes ?? BUNDLED.uploadLimits.maxFileBytes,
    maxFiles: options.maxFiles ?? BUNDLED.uploadLimits.maxFiles,
    maxFilenameLength: BUNDLED.maxFilenameLength,
    minRate: { ...DEFAULT_MIN_UPLOAD_RATE, ...options.minUploadRate },
  };

  const defaults: ProcessingSettings = {
    processing_delay_ms: options.processingDelayMs ?? DEFAULT_PROCESSING_DELAY_MS,
    failure_rate: options.failureRate ?? 0,
  };
  const extraction = { ...DEFAULT_EXTRACTION_LIMITS, ...options.extraction };
  // The extractors stop at their own limit with a precise message; this catches any that do not.
  const runBudgetMs = EXTRACTION_START_TIMEOUT_MS + extraction.timeoutMs + RUN_BUDGET_GRACE_MS;
  const parts = await openStore(options, logger, clock, {
    concurrency,
    runLeaseMs: options.runLeaseMs ?? runBudgetMs + RUN_LEASE_GRACE_MS,
    defaults,
  });
  const { store, location } = parts;
  let scratch: ScratchDir;
  try {
    scratch = await prepareScratchDir(join(options.dataDir, 'tmp'));
  } catch (error) {
    await parts.queue?.stop();
    await store.close();
    await parts.close?.();
    throw error;
  }
  const settings = parts.settings ?? createSettings(defaults);
  const { metrics } = options;
  const extractor = createExtractor(extraction, metrics?.extractionReplaced);
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE;
  const journal: RequestJournal = parts.db
    ? (await import('../store/postgres/postgres-journal.js')).createPostgresJournal(parts.db, {
        capacity: journalSize,
        logger: logger.child({ component: 'journal' }),
      })
    : createMemoryJournal({ capacity: journalSize });
  const localQueue = parts.queue ? undefined : createLocalRunQueue({ concurrency });
  const keyring = createKeyring(options.apiKeys, saltedTenants(store.tenantSalt));
  const apiKeys = [...keyring.keys];
  const { api, processor } = createReferenceCore({
    store,
    extractor,
    queue: parts.queue ?? localQueue!,
    keyring,
    settings,
    faults: parts.faults ?? createFaults(),
    resetTenant: parts.resetTenant,
    clock,
    random: createRandom(options.seed),
    runBudgetMs,
    logger: logger.child({ component: 'processor' }),
    journal,
    observer: metrics?.runs,
  });
  const ready = readiness(parts.db);
  const ops = createOpsRoutes({ ready, metrics: options.metricsOnApiPort === false ? undefined : metrics });
  const app = createApp({
    api,
    receive: createUploadReceiver(scratch.dir, limits),
    logger,
    corsOrigins: options.corsOrigins?.length ? options.corsOrigins : ['*'],
    prefillApiKey: apiKeys.length === 1 && apiKeys[0] === DEV_API_KEY ? DEV_API_KEY : undefined,
    ops,
    observe: metrics?.observeRequest,
  });
  let sweeper: NodeJS.Timeout | undefined;
  const close = async () => {
    clearInterval(sweeper);
    await processor.stop();
    await Promise.all([extractor.close(), store.close(), journal.close().catch(() => {})]);
    await parts.close?.();
    await scratch.release();
  };
  // A start that fails from here on (the database gone right after migrating) closes what it opened.
  let recovered: number;
  try {
    recovered = await processor.recover();
  } catch (error) {
    await close();
    throw error;
  }
  // With a shared queue, a replica that died between storing an upload and queueing its runs leaves
  // documents with no run: every replica looks for such documents now and then and queues them (a run
  // queued already keeps its place, so this queues each stranded run once).
  if (parts.queue)
    sweeper = setInterval(() => void processor.recover().catch(() => {}), options.strandedSweepMs ?? STRANDED_SWEEP_MS).unref();
  let seeded = 0;
  if (options.seedFile) {
    try {
      const seed = () => seedFromFile({ store, processor, clock }, options.seedFile!, (key) => keyring.tenantOf(key), apiKeys);
      // Replicas starting at once seed one after another, so a tenant is seeded once.
      seeded = await (parts.exclusively ? parts.exclusively(seed) : seed());
    } catch (error) {
      await close();
      throw error;
    }
  }

  return {
    app,
    fetch: fetchApi(api, { limits }),
    store,
    storeLocation: location,
    processor,
    settings,
    extractor,
    logger,
    apiKeys,
    recovered,
    seeded,
    scratchDir: scratch.dir,
    ready,
    metricSources: metricSources(parts.db, store, localQueue),
    ops: createOpsRoutes({ ready, metrics }),
    close,
  };
}
