import { BUNDLED_OPERATIONS } from '@docproc-kit/contract/bundled.js';
import { createDocumentsApi } from './api/documents-api.js';
import type { Keyring } from './api/keys.js';
import { createReferenceApi, type ReferenceApi } from './api/reference-api.js';
import { createControlsApi } from './controls/controls-api.js';
import type { FaultRegistry } from './controls/faults.js';
import type { RequestJournal } from './journal/request-journal.js';
import type { CoreLogger } from './logger.js';
import type { Extractor } from './processing/extraction.js';
import { createProcessor, type Processor, type RunObserver } from './processing/processor.js';
import type { RunQueue } from './processing/queue/run-queue.js';
import type { SettingsRegistry } from './processing/settings.js';
import type { DocumentStore } from './store/document-store.js';
import { createUploadService } from './upload/upload-service.js';

export type { CoreLogger } from './logger.js';

/** Everything the reference service's behaviour is built from; each part is a port or a value, handed in. */
export interface ReferenceCoreDeps {
  store: DocumentStore;
  extractor: Extractor;
  queue: RunQueue;
  keyring: Keyring;
  settings: SettingsRegistry;
  faults: FaultRegistry;
  /** Resets a tenant whole in one write, where settings and faults live beside the documents (a database). */
  resetTenant?: (tenant: string) => Promise<number>;
  clock: () => Date;
  /** Uniform draws in [0, 1) for simulated failures (seeded for reproducible runs). */
  random: () => number;
  /** Longest a run may hold its slot (see processor.ts). */
  runBudgetMs: number;
  logger: CoreLogger;
  /** Each tenant's last answered requests (`GET /_mock/requests`). */
  journal: RequestJournal;
  /** Told of every finished run (the server's metrics); nothing when absent. */
  observer?: RunObserver;
}

/** The reference service's behaviour, whatever carries its requests. */
export interface ReferenceCore {
  api: ReferenceApi;
  processor: Processor;
}

/**
 * Wires the reference service's behaviour from its parts: the processor, the upload service, the four
 * operations, the mock controls and the API in front of them. The server (service.ts: Express, lowdb,
 * OCR in child processes) and the in-process mocks (a `fetch` function, MSW handlers: the memory store)
 * are both this, with other parts handed in. Browser-safe: nothing here imports a Node module.
 * @example const { api, processor } = createReferenceCore({ store, extractor, queue, keyring, settings, faults, clock, random, runBudgetMs, logger, journal });
 */
export function createReferenceCore(deps: ReferenceCoreDeps): ReferenceCore {
  const { store, keyring, settings, faults, clock, resetTenant, journal } = deps;
  const processor = createProcessor(deps);
  const uploads = createUploadService({ store, processor, clock });
  const api = createReferenceApi({
    keyring,
    faults,
    operations: createDocumentsApi({ store, processor, uploads }),
    controls: createControlsApi({
      store,
      processor,
      settings,
      faults,
      clock,
      resetTenant,
      journal,
      operationIds: BUNDLED_OPERATIONS.operationIds,
    }),
    journal,
  });
  return { api, processor };
}
