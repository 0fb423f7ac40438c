import { createKeyring } from '@docproc-kit/reference/api/keys.js';
import { createMemoryReference } from '@docproc-kit/reference/memory-reference.js';
import type { Extraction } from '@docproc-kit/reference/processing/lifecycle.js';
import { createMemoryStore } from '@docproc-kit/reference/store/memory/memory-store.js';
import { createGatedExtractor, twinFilePath } from './gated-extractor.js';

/** What the twin is told of the deployment it stands beside. */
export interface TwinSettings {
  /** The target's keys, in the order the suite names its tenants (the run's key first). */
  keys: string[];
  maxFiles: number;
  maxFileBytes: number;
  maxFilenameLength: number;
}

/** The reference core in this process, answering what the target is sent. */
export interface ReferenceTwin {
  /** Answers one request (its URL's origin is ignored). */
  send(request: Request): Promise<Response>;
  /** Ends the run of the twin's document `id` as `extraction` says. */
  release(id: number, extraction: Extraction): void;
  close(): Promise<void>;
}

// A run of the twin waits for the oracle, however long the target takes: no budget may end it first; and
// every run starts at once, so any one of them can be ended whatever the others do.
const RUN_BUDGET_MS = 24 * 3600_000;
const CONCURRENCY = 10_000;

/**
 * A fresh reference core (memory store, no delay, no simulated failures, the gated extractor) with the
 * target's keys and upload limits: one per sequence, so every sequence starts from nothing on both sides.
 * @example const twin = createReferenceTwin({ keys: ['k1'], maxFiles: 20, maxFileBytes: 26214400, maxFilenameLength: 255 });
 */
export function createReferenceTwin(settings: TwinSettings): ReferenceTwin {
  const extractor = createGatedExtractor();
  const { handle, processor } = createMemoryReference({
    keyring: createKeyring(settings.keys),
    extractor,
    limits: { maxFiles: settings.maxFiles, maxFileBytes: settings.maxFileBytes, maxFilenameLength: settings.maxFilenameLength },
    settings: { processing_delay_ms: 0, failure_rate: 0 },
    concurrency: CONCURRENCY,
    runBudgetMs: RUN_BUDGET_MS,
    random: () => 0.5,
    journalSize: 0,
    logger: { info: () => {}, error: () => {} },
    // The memory store keeps files in memory; their path only names the document for the extractor.
    store: { ...createMemoryStore(), filePath: twinFilePath },
  });
  return {
    send: handle,
    release: (id, extraction) => extractor.release(id, extraction),
    async close() {
      await extractor.close();
      await processor.stop();
    },
  };
}
