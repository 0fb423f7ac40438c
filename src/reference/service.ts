import type { Express } from 'express';
import type { Logger } from 'pino';
import { maxFilenameLength } from '../contract/served-contract.js';
import { createLogger } from '../http/logging.js';
import { DEFAULT_MIN_UPLOAD_RATE, type MinUploadRate } from '../http/upload/min-rate.js';
import { DEFAULT_UPLOAD_LIMITS } from '../http/upload/upload-parser.js';
import { createApp } from './app.js';
import { createKeyring, DEV_API_KEY } from './auth.js';
import { createFaults } from './controls/faults.js';
import { seedFromFile } from './controls/seeding.js';
import { EXTRACTION_START_TIMEOUT_MS } from './processing/extraction-pool.js';
import { createExtractor, DEFAULT_EXTRACTION_LIMITS, type ExtractionLimits, type Extractor } from './processing/extractor.js';
import { createProcessor, type Processor } from './processing/processor.js';
import { createRandom, createSettings, DEFAULT_PROCESSING_DELAY_MS, type SettingsRegistry } from './processing/settings.js';
import { openStore, type Store } from './store/store.js';

/** Options of the reference service; only `dataDir` is required. */
export interface ReferenceServiceOptions {
  dataDir: string;
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
  logger?: Logger;
  clock?: () => Date;
}

/** A running service: the app plus what it was built from, and a way to stop it. */
export interface ReferenceService {
  app: Express;
  store: Store;
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
  /** Stops processing, waits for writes in flight, releases the data dir. */
  close(): Promise<void>;
}

// How long past the extraction time limit (and its process's start-up limit) a run may still hold its slot.
const RUN_BUDGET_GRACE_MS = 2_000;

/**
 * Opens the store and builds the processor and the app; documents a previous process left
 * `processing` are picked up again. Throws (naming the file) when the db file is damaged.
 * @example const service = await createReferenceService({ dataDir: '.docproc' }); service.app.listen(4010);
 */
export async function createReferenceService(options: ReferenceServiceOptions): Promise<ReferenceService> {
  const logger = options.logger ?? createLogger({ level: 'info' });
  const apiKeys = options.apiKeys?.length ? [...options.apiKeys] : [DEV_API_KEY];
  const clock = options.clock ?? (() => new Date());
  const concurrency = options.concurrency ?? 2;
  const limits = {
    maxFileBytes: options.maxFileBytes ?? DEFAULT_UPLOAD_LIMITS.maxFileBytes,
    maxFiles: options.maxFiles ?? DEFAULT_UPLOAD_LIMITS.maxFiles,
    maxFilenameLength: await maxFilenameLength(),
    minRate: { ...DEFAULT_MIN_UPLOAD_RATE, ...options.minUploadRate },
  };

  const store = await openStore(options.dataDir, { logger: logger.child({ component: 'store' }), clock });
  const settings = createSettings({
    processing_delay_ms: options.processingDelayMs ?? DEFAULT_PROCESSING_DELAY_MS,
    failure_rate: options.failureRate ?? 0,
  });
  const extraction = { ...DEFAULT_EXTRACTION_LIMITS, ...options.extraction };
  const extractor = createExtractor(extraction);
  const processor = createProcessor({
    store,
    extractor,
    settings,
    random: createRandom(options.seed),
    clock,
    concurrency,
    // The extractors stop at their own limit with a precise message; this catches any that do not.
    runBudgetMs: EXTRACTION_START_TIMEOUT_MS + extraction.timeoutMs + RUN_BUDGET_GRACE_MS,
    logger: logger.child({ component: 'processor' }),
  });
  const keyring = createKeyring(apiKeys, store.tenantSalt);
  const app = createApp({
    store,
    processor,
    settings,
    faults: createFaults(),
    keyring,
    logger,
    clock,
    limits,
    corsOrigins: options.corsOrigins?.length ? options.corsOrigins : ['*'],
    prefillApiKey: apiKeys.length === 1 && apiKeys[0] === DEV_API_KEY ? DEV_API_KEY : undefined,
  });
  const recovered = processor.recover();
  const close = async () => {
    await processor.stop();
    await Promise.all([extractor.close(), store.close()]);
  };
  let seeded = 0;
  if (options.seedFile) {
    try {
      seeded = await seedFromFile({ store, processor, clock }, options.seedFile, (key) => keyring.tenantOf(key), apiKeys);
    } catch (error) {
      await close();
      throw error;
    }
  }

  return {
    app,
    store,
    processor,
    settings,
    extractor,
    logger,
    apiKeys,
    recovered,
    seeded,
    close,
  };
}
