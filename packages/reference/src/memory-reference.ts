import type { Keyring } from './api/keys.js';
import { createFaults } from './controls/faults.js';
import { type CoreLogger, createReferenceCore } from './core.js';
import { fetchApi } from './http/fetch-api.js';
import type { UploadLimits } from './http/upload/received-upload.js';
import { createMemoryJournal } from './journal/request-journal.js';
import type { Extractor } from './processing/extraction.js';
import type { Processor } from './processing/processor.js';
import { createLocalRunQueue } from './processing/queue/local-run-queue.js';
import { createSettings, type ProcessingSettings } from './processing/settings.js';
import type { DocumentStore } from './store/document-store.js';
import { createMemoryStore } from './store/memory/memory-store.js';

/** What an in-memory reference service is built from besides its memory parts. */
export interface MemoryReferenceOptions {
  keyring: Keyring;
  extractor: Extractor;
  /** The upload limits the `fetch` carrier enforces. */
  limits: UploadLimits;
  /** The processing settings a tenant starts with (`/_mock/settings` changes them). */
  settings: ProcessingSettings;
  /** Runs at once. */
  concurrency: number;
  runBudgetMs: number;
  random: () => number;
  /** Answered requests kept per tenant (0: none). */
  journalSize: number;
  logger: CoreLogger;
  /** The memory store by default; a wrapper of it where the caller names files its own way. */
  store?: DocumentStore;
}

/** The reference service in memory, behind a `fetch`-shaped handler. */
export interface MemoryReference {
  /** Answers one request (the API's paths and `/_mock`). */
  handle(request: Request): Promise<Response>;
  processor: Processor;
  /** The store it keeps documents in (a seed is written there directly). */
  store: DocumentStore;
}

/**
 * The reference core on its memory parts (store, run queue, journal, faults) with the `fetch` carrier in
 * front: what the MSW handlers, the `fetch` mock and the conformance oracle's twin all are. Browser-safe.
 * @example const { handle } = createMemoryReference({ keyring, extractor, limits, settings, concurrency: 4, runBudgetMs, random: Math.random, journalSize: 100, logger });
 */
export function createMemoryReference(options: MemoryReferenceOptions): MemoryReference {
  const store = options.store ?? createMemoryStore();
  const { api, processor } = createReferenceCore({
    store,
    extractor: options.extractor,
    queue: createLocalRunQueue({ concurrency: options.concurrency }),
    keyring: options.keyring,
    settings: createSettings(options.settings),
    faults: createFaults(),
    clock: () => new Date(),
    random: options.random,
    runBudgetMs: options.runBudgetMs,
    journal: createMemoryJournal({ capacity: options.journalSize }),
    logger: options.logger,
  });
  return { handle: fetchApi(api, { limits: options.limits }), processor, store };
}
