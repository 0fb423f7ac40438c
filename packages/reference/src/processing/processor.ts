import type { CoreLogger } from '../logger.js';
import type { DocumentRecord, ForcedOutcome } from '../model.js';
import type { DocumentStore } from '../store/document-store.js';
import type { Extractor } from './extraction.js';
import { decideOutcome, type Extraction, finishRun, type RunOutcome, startRetry } from './lifecycle.js';
import type { RunJob, RunQueue } from './queue/run-queue.js';
import type { SettingsRegistry } from './settings.js';

// How soon a result that could not be written is tried again, doubling up to the maximum.
const RESULT_RETRY_FIRST_MS = 500;
const RESULT_RETRY_MAX_MS = 30_000;

const transient = (message: string): Extraction => ({ ok: false, error: { code: 'processing_error', message } });

/** What the processor needs; all of it is handed in, so tests pass a memory store and a queue they drive. */
export interface ProcessorOptions {
  store: DocumentStore;
  extractor: Extractor;
  /** Where runs wait for a slot (tenants in turn, bounded concurrency). */
  queue: RunQueue;
  settings: SettingsRegistry;
  /** Uniform draws in [0, 1) for simulated failures. */
  random: () => number;
  clock: () => Date;
  /**
   * Longest an extraction may hold its slot; past it the run fails `unreadable_document` and the
   * slot goes to the next document, whatever the extractor does (its own limit should fire first).
   */
  runBudgetMs: number;
  logger: CoreLogger;
  /** Told of every finished run (the metrics); nothing when absent. */
  observer?: RunObserver;
}

/** What a finished run tells an observer: how it ended, how long it ran, and how long it waited to start. */
export interface RunObserver {
  /** `errorCode` of a failed run; `waitS` from the document entering processing (its delay included) to the run's start. */
  runFinished(status: 'completed' | 'failed', errorCode: string | undefined, durationS: number, waitS: number): void;
}

/** The outcome of a retry request. */
export type RetryResult = { kind: 'started'; record: DocumentRecord } | { kind: 'busy'; record: DocumentRecord } | { kind: 'not_found' };

/** Runs processing in the background. */
export interface Processor {
  /** Queues a run for each `processing` record (after it was stored). */
  submit(records: DocumentRecord[]): void;
  /** Starts a new run of a tenant's completed or failed document. */
  retry(tenant: string, id: number): Promise<RetryResult>;
  /** Forces how the document's next finished run ends; undefined when it is not the tenant's. */
  forceOutcome(tenant: string, id: number, forced: ForcedOutcome): Promise<DocumentRecord | undefined>;
  /** Queues again the runs of documents left `processing` by a previous process; resolves to how many. */
  recover(): Promise<number>;
  /**
   * Resolves once no run this processor queued is waiting or in progress. Only with a queue of its own
   * (the in-process mock's): on a queue shared by replicas, a run queued here may run on another one.
   */
  idle(): Promise<void>;
  /** Stops starting and finishing runs and waits for result writes in flight. */
  stop(): Promise<void>;
}

const jobOf = (record: DocumentRecord): RunJob => ({ documentId: record.id, tenant: record.tenant, attempt: record.attempts });

/**
 * Creates the processor: a run waits out the tenant's processing delay (so every document stays
 * `processing` at least that long), then a slot of the queue; its extraction runs within the run
 * budget, and its result is written once, on the record as the run found it (a run that a retry or a
 * reset superseded writes nothing).
 * @example const processor = createProcessor({ store, extractor, queue, settings, random, clock, runBudgetMs: 62_000, logger });
 */
export function createProcessor(options: ProcessorOptions): Processor {
  const { store, extractor, queue, settings, random, clock, logger, observer } = options;
  const finishing = new Set<Promise<unknown>>();
  let stopped = false;
  // Runs waiting to write a result again; a stop wakes them, so they end at once.
  const sleepers = new Set<() => void>();
  const now = () => clock().toISOString();
  const fileOf = (id: number) => ({ path: store.filePath?.(id), bytes: () => store.readFile(id) });
  // Runs queued here and not yet ended, for idle().
  let outstanding = 0;
  const wakeIdle: Array<() => void> = [];
  const ended = () => {
    outstanding--;
    if (outstanding === 0) for (const wake of wakeIdle.splice(0)) wake();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });

  const withinBudget = async (extraction: Promise<Extraction>): Promise<Extraction> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
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

  const extract = async (record: DocumentRecord): Promise<Extraction> => {
    try {
      return await withinBudget(extractor.extract(fileOf(record.id), record.content_type));
    } catch (err) {
      // An extractor bug must end the run, not strand the document in `processing`.
      logger.error({ err, documentId: record.id }, 'extraction failed unexpectedly');
      return transient('Processing failed unexpectedly; a retry may succeed.');
    }
  };

  // Writes a run's result on the record as the run found it. A result that cannot be written (disk full,
  // read-only) is tried again until it lands, so the document is never left `processing` with no run;
  // the draw and the forced outcome are decided once.
  const finish = async (job: RunJob, extraction: Extraction): Promise<RunOutcome | undefined> => {
    let outcome: RunOutcome | undefined;
    for (let wait = RESULT_RETRY_FIRST_MS; ; wait = Math.min(wait * 2, RESULT_RETRY_MAX_MS)) {
      if (stopped) return undefined;
      const write = store.update(job.documentId, (current) => {
        // The record may have been reset away, or be in another run meanwhile.
        if (current.status !== 'processing' || current.attempts !== job.attempt) return undefined;
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
        return (await write)?.changed ? outcome : undefined;
      } catch (err) {
        logger.error({ err, documentId: job.documentId }, `could not store the result of a run; trying again in ${wait / 1000} s`);
        await sleep(wait);
      } finally {
        finishing.delete(write);
      }
    }
  };

  const run = async (job: RunJob) => {
    try {
      const record = await store.byId(job.documentId);
      // Superseded by a retry, removed by a reset, or already finished (a run queued twice).
      if (record?.status !== 'processing' || record.attempts !== job.attempt || stopped) return;
      const started = performance.now();
      const waitS = Math.max(0, clock().getTime() - Date.parse(record.updated_at)) / 1000;
      const outcome = await finish(job, await extract(record));
      if (!outcome) return;
      const errorCode = outcome.status === 'failed' ? outcome.error.code : undefined;
      observer?.runFinished(outcome.status, errorCode, (performance.now() - started) / 1000, waitS);
      logger.info(
        {
          documentId: job.documentId,
          tenant: job.tenant,
          attempt: job.attempt,
          status: outcome.status,
          error: errorCode,
        },
        'processing run finished',
      );
    } catch (err) {
      logger.error({ err, documentId: job.documentId }, 'processing run failed unexpectedly');
    } finally {
      ended();
    }
  };
  queue.start(run);

  const submit = (records: DocumentRecord[]) => {
    if (stopped || records.length === 0) return;
    // One delay per tenant's batch: every record of a submit belongs to one tenant (an upload, a retry).
    const byTenant = new Map<string, DocumentRecord[]>();
    for (const record of records) byTenant.set(record.tenant, [...(byTenant.get(record.tenant) ?? []), record]);
    for (const [tenant, mine] of byTenant) {
      outstanding += mine.length;
      queue.enqueue(mine.map(jobOf), settings.get(tenant).processing_delay_ms).catch((err: unknown) => {
        // Queued nowhere: the documents stay processing until a restart queues them again.
        logger.error({ err, documents: mine.map((r) => r.id) }, 'could not queue processing runs');
        for (const _ of mine) ended();
      });
    }
  };

  return {
    submit,
    async retry(tenant, id) {
      if (!(await store.get(tenant, id))) return { kind: 'not_found' };
      // Decided on the record as the change before left it, so of concurrent retries one starts.
      const result = await store.update(id, (current) => {
        const decision = startRetry(current, now());
        return decision.ok ? { record: decision.record } : undefined;
      });
      if (!result) return { kind: 'not_found' };
      if (!result.changed) return { kind: 'busy', record: result.record };
      submit([result.record]);
      return { kind: 'started', record: result.record };
    },
    async forceOutcome(tenant, id, forced) {
      if (!(await store.get(tenant, id))) return undefined;
      // Not a visible change of the document, so updated_at stays.
      return (await store.update(id, (current) => ({ record: { ...current, next_outcome: forced } })))?.record;
    },
    async recover() {
      const stranded = await store.inStatus('processing');
      submit(stranded);
      return stranded.length;
    },
    idle() {
      return outstanding === 0 ? Promise.resolve() : new Promise<void>((resolve) => wakeIdle.push(resolve));
    },
    async stop() {
      stopped = true;
      for (const wake of [...sleepers]) wake();
      await queue.stop();
      // Runs still extracting are abandoned (restart recovery redoes them); result writes that
      // already started must land.
      await Promise.allSettled([...finishing]);
      for (const wake of wakeIdle.splice(0)) wake();
    },
  };
}
