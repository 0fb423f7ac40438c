import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { DocumentRecord, ForcedOutcome } from '../model.js';
import type { DocumentStore } from '../store/document-store.js';
import type { Extractor } from './extractor.js';
import { createFairQueue } from './fair-queue.js';
import { decideOutcome, type Extraction, finishRun, type RunOutcome, startRetry } from './lifecycle.js';
import type { SettingsRegistry } from './settings.js';

// How soon a result that could not be written is tried again, doubling up to the maximum.
const RESULT_RETRY_FIRST_MS = 500;
const RESULT_RETRY_MAX_MS = 30_000;

const transient = (message: string): Extraction => ({ ok: false, error: { code: 'processing_error', message } });

/** What the processor needs; all of it is handed in, so tests pass a temp store and a clock. */
export interface ProcessorOptions {
  store: DocumentStore;
  extractor: Extractor;
  settings: SettingsRegistry;
  /** Uniform draws in [0, 1) for simulated failures. */
  random: () => number;
  clock: () => Date;
  /** How many extractions may run at once. */
  concurrency: number;
  /**
   * Longest an extraction may hold its slot; past it the run fails `unreadable_document` and the
   * slot goes to the next document, whatever the extractor does (its own limit should fire first).
   */
  runBudgetMs: number;
  logger: Logger;
}

/** The outcome of a retry request. */
export type RetryResult = { kind: 'started'; record: DocumentRecord } | { kind: 'busy'; record: DocumentRecord } | { kind: 'not_found' };

/** Runs processing in the background. */
export interface Processor {
  /** Starts a run for each `processing` record (after it was stored). */
  submit(records: DocumentRecord[]): void;
  /** Starts a new run of a tenant's completed or failed document. */
  retry(tenant: string, id: number): Promise<RetryResult>;
  /** Forces how the document's next finished run ends; undefined when it is not the tenant's. */
  forceOutcome(tenant: string, id: number, forced: ForcedOutcome): Promise<DocumentRecord | undefined>;
  /** Restarts the runs of documents left `processing` by a previous process; resolves to how many. */
  recover(): Promise<number>;
  /** Resolves once no run is in progress. */
  idle(): Promise<void>;
  /** Stops starting and finishing runs and waits for result writes in flight. */
  stop(): Promise<void>;
}

/**
 * Creates the processor: extraction goes through a queue with bounded concurrency that serves
 * tenants in turn, each extraction within the run budget; the minimum processing delay is a timer
 * outside the queue, so slow-looking runs do not hold a slot.
 * @example const processor = createProcessor({ store, extractor, settings, random, clock, concurrency: 2, runBudgetMs: 62_000, logger });
 */
export function createProcessor(options: ProcessorOptions): Processor {
  const { store, extractor, settings, random, clock, logger } = options;
  const queue = createFairQueue(options.concurrency);
  const runs = new Set<Promise<void>>();
  const finishing = new Set<Promise<unknown>>();
  const stopping = new AbortController();
  // Every document waiting out its delay listens for the stop (and stops listening when done), so
  // twenty files uploaded at once are twenty listeners, not a leak: without this node prints a
  // "memory leak" warning into the server's log from the eleventh on.
  setMaxListeners(0, stopping.signal);
  const now = () => clock().toISOString();
  const fileOf = (id: number) => ({ path: store.filePath?.(id), bytes: () => store.readFile(id) });

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || stopping.signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      }
      stopping.signal.addEventListener('abort', done);
    });

  const withinBudget = async (extraction: Promise<Extraction>): Promise<Extraction> => {
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<Extraction>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            error: {
              code: 'unreadable_document',
              message: `Processing took longer than ${Math.round(options.runBudgetMs / 1000)} s, the processing time limit.`,
            },
          }),
        options.runBudgetMs,
      );
    });
    try {
      return await Promise.race([extraction, overrun]);
    } finally {
      clearTimeout(timer);
    }
  };

  const run = async (record: DocumentRecord, startedAt: number) => {
    let extraction: Extraction;
    try {
      extraction =
        (await queue.add(record.tenant, () => withinBudget(extractor.extract(fileOf(record.id), record.content_type)))) ??
        transient('Processing was cancelled.');
    } catch (err) {
      // An extractor bug must end the run, not strand the document in `processing`.
      logger.error({ err, documentId: record.id }, 'extraction failed unexpectedly');
      extraction = transient('Processing failed unexpectedly; a retry may succeed.');
    }
    await sleep(startedAt + settings.get(record.tenant).processing_delay_ms - performance.now());
    let outcome: RunOutcome | undefined;
    // A result that cannot be written (disk full, read-only) is tried again until it lands, so the
    // document is never left `processing` with no run; the draw and the forced outcome are decided once.
    for (let wait = RESULT_RETRY_FIRST_MS; ; wait = Math.min(wait * 2, RESULT_RETRY_MAX_MS)) {
      if (stopping.signal.aborted) return;
      const write = store.update(record.id, (current) => {
        // The record may have been reset away, or (after a restart) be in another run meanwhile.
        if (current.status !== 'processing' || current.attempts !== record.attempts) return undefined;
        outcome ??= decideOutcome({
          extraction,
          forced: current.next_outcome,
          failureRate: settings.get(current.tenant).failure_rate,
          draw: random(),
        });
        return { record: finishRun(current, outcome, now()), text: outcome.status === 'completed' ? outcome.content : undefined };
      });
      finishing.add(write);
      try {
        const written = await write;
        if (!written?.changed) return;
        break;
      } catch (err) {
        logger.error({ err, documentId: record.id }, `could not store the result of a run; trying again in ${wait / 1000} s`);
        await sleep(wait);
      } finally {
        finishing.delete(write);
      }
    }
    const ended = outcome as RunOutcome;
    logger.info(
      {
        documentId: record.id,
        tenant: record.tenant,
        attempt: record.attempts,
        status: ended.status,
        error: ended.status === 'failed' ? ended.error.code : undefined,
      },
      'processing run finished',
    );
  };

  const submit = (record: DocumentRecord) => {
    if (stopping.signal.aborted) return;
    const started = run(record, performance.now())
      .catch((err: unknown) => logger.error({ err, documentId: record.id }, 'processing run failed unexpectedly'))
      .finally(() => runs.delete(started));
    runs.add(started);
  };

  return {
    submit: (records) => records.forEach(submit),
    async retry(tenant, id) {
      if (!(await store.get(tenant, id))) return { kind: 'not_found' };
      // Decided on the record as the change before left it, so of concurrent retries one starts.
      const result = await store.update(id, (current) => {
        const decision = startRetry(current, now());
        return decision.ok ? { record: decision.record } : undefined;
      });
      if (!result) return { kind: 'not_found' };
      if (!result.changed) return { kind: 'busy', record: result.record };
      submit(result.record);
      return { kind: 'started', record: result.record };
    },
    async forceOutcome(tenant, id, forced) {
      if (!(await store.get(tenant, id))) return undefined;
      // Not a visible change of the document, so updated_at stays.
      return (await store.update(id, (current) => ({ record: { ...current, next_outcome: forced } })))?.record;
    },
    async recover() {
      const stranded = await store.inStatus('processing');
      stranded.forEach(submit);
      return stranded.length;
    },
    async idle() {
      while (runs.size > 0) await Promise.allSettled([...runs]);
    },
    async stop() {
      stopping.abort();
      queue.clear();
      // Runs still extracting are abandoned (restart recovery redoes them); result writes that
      // already started must land.
      await Promise.allSettled([...finishing]);
    },
  };
}
