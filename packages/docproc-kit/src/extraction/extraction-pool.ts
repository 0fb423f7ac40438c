import type { ContentType } from '@docproc-kit/reference/model.js';
import type { Extraction } from '@docproc-kit/reference/processing/lifecycle.js';
import { type ExtractionInput, type ExtractionJob, memoryLimitError, timeLimitError, type Whereabouts } from './child-protocol.js';
import { type ExtractionProcess, type ProcessEnd, startExtractionProcess } from './extraction-process.js';

/** What the pool needs to know. */
export interface ExtractionPoolOptions {
  maxPdfPages: number;
  maxImagePixels: number;
  maxRenderPixels: number;
  /** One extraction may take at most this long, in ms; then its process is killed. */
  timeoutMs: number;
  /** One extraction process may hold at most this much memory, in MiB; then it is killed. */
  memoryMb: number;
  /** A process that was ever resident above this (MiB) is replaced after its document instead of kept. */
  recycleAboveMb: number;
  /** How often a busy process's resident memory is read (default 20 ms). */
  watchEveryMs?: number;
  /** Told each time a process is replaced after a document, and why (the metrics). */
  onReplaced?: (reason: ReplacedBecause) => void;
}

/** Why an extraction process was replaced after a document rather than kept for the next. */
export type ReplacedBecause = 'memory_limit' | 'time_limit' | 'start_timeout' | 'crashed' | 'grew';

/** Reads documents in extraction processes. */
export interface ExtractionPool {
  extract(input: ExtractionInput, contentType: ContentType): Promise<Extraction>;
  /** How many processes are alive now (idle or busy). */
  readonly processes: number;
  close(): Promise<void>;
}

const MIB = 1024 * 1024;

/**
 * How long a process may take to start reading a document (a new process loads Node and its modules
 * first); the document's own time limit starts once it does.
 */
export const EXTRACTION_START_TIMEOUT_MS = 20_000;

type Stop = 'memory' | 'time' | 'start';

// What V8, the C++ runtime and Skia (an image's pixels that could not be allocated: it stops the
// process with SIGILL) print when an allocation fails under the data limit, before aborting.
const OUT_OF_MEMORY = /out of memory|bad_alloc|allocation failed|Cannot allocate memory|tryAllocPixels/i;

/**
 * Reads each document in an extraction process of its own slot, started on first use and reused
 * while it stays small. Each read is watched: its resident memory is read from /proc every
 * `watchEveryMs` and the process is killed above `memoryMb` (besides the data limit it runs under,
 * which stops most growth at the allocation); it is killed `timeoutMs` after it began reading the
 * document (a new process's start-up has a limit of its own, {@link EXTRACTION_START_TIMEOUT_MS}). Either way the document
 * fails `unreadable_document` naming the limit and the page it had reached, and the slot gets a new
 * process. A process that ever grew past `recycleAboveMb` (tesseract's wasm memory never shrinks,
 * nor does a heap give all it took back) is replaced after its document too.
 * @example const pool = createExtractionPool({ maxPdfPages: 500, maxImagePixels: 1e8, maxRenderPixels: 25e6, timeoutMs: 60_000, memoryMb: 512, recycleAboveMb: 256 });
 */
export function createExtractionPool(options: ExtractionPoolOptions): ExtractionPool {
  const idle: ExtractionProcess[] = [];
  const alive = new Set<ExtractionProcess>();
  let closed = false;
  const limitBytes = options.memoryMb * MIB;
  const recycleAboveBytes = options.recycleAboveMb * MIB;

  // The job a process is running, told when the process ends: one handler per process, replaced per job,
  // so a process kept for thousands of documents holds none of the earlier ones (nor their bytes).
  const onEnd = new Map<ExtractionProcess, (end: ProcessEnd) => void>();
  const start = () => {
    const child = startExtractionProcess({ memoryMb: options.memoryMb });
    alive.add(child);
    void child.ended.then((end) => {
      alive.delete(child);
      const index = idle.indexOf(child);
      if (index >= 0) idle.splice(index, 1);
      const running = onEnd.get(child);
      onEnd.delete(child);
      running?.(end);
    });
    return child;
  };

  const explainEnd = (end: ProcessEnd, stopped: Stop | undefined, at: Whereabouts): Extraction => {
    if (closed) return { ok: false, error: { code: 'processing_error', message: 'The server is shutting down.' } };
    if (stopped === 'time') return timeLimitError(at, options.timeoutMs);
    if (stopped === 'start') {
      const message = `The extraction process did not start within ${EXTRACTION_START_TIMEOUT_MS / 1000} s; a retry may succeed.`;
      return { ok: false, error: { code: 'processing_error', message } };
    }
    if (stopped === 'memory' || end.signal === 'SIGABRT' || OUT_OF_MEMORY.test(end.stderr)) return memoryLimitError(at, options.memoryMb);
    return { ok: false, error: { code: 'processing_error', message: 'The extraction process stopped unexpectedly; a retry may succeed.' } };
  };

  return {
    extract(input, contentType) {
      if (closed) return Promise.resolve({ ok: false, error: { code: 'processing_error', message: 'The server is shutting down.' } });
      const child = idle.pop() ?? start();
      const job: ExtractionJob = {
        ...input,
        contentType,
        maxPdfPages: options.maxPdfPages,
        maxImagePixels: options.maxImagePixels,
        maxRenderPixels: options.maxRenderPixels,
        memoryMb: options.memoryMb,
      };
      return new Promise<Extraction>((resolve) => {
        let at: Whereabouts = { kind: contentType === 'application/pdf' ? 'pdf' : 'image', page: 0, pages: 0 };
        let stopped: Stop | undefined;
        let settled = false;
        const stop = (why: Stop) => {
          stopped ??= why;
          child.kill();
        };
        const watch = setInterval(() => {
          if ((child.rssBytes() ?? 0) > limitBytes) stop('memory');
        }, options.watchEveryMs ?? 20);
        let timer = setTimeout(() => stop('start'), EXTRACTION_START_TIMEOUT_MS);
        let reading = false;
        const settle = (extraction: Extraction, keep: boolean, why: ReplacedBecause) => {
          if (settled) return;
          settled = true;
          if (!keep && !closed) options.onReplaced?.(why);
          onEnd.delete(child);
          clearInterval(watch);
          clearTimeout(timer);
          if (keep && !closed) idle.push(child);
          else child.kill();
          resolve(extraction);
        };
        child.send(job, (message) => {
          if (message.type === 'progress') {
            at = { kind: at.kind, page: message.page, pages: message.pages };
            if (!reading) {
              reading = true;
              clearTimeout(timer);
              timer = setTimeout(() => stop('time'), options.timeoutMs);
            }
            return;
          }
          if (stopped) return; // its end says why
          const peak = child.peakBytes();
          const keep = !message.memoryLimitReached && (peak === undefined || peak <= recycleAboveBytes);
          settle(message.extraction, keep, message.memoryLimitReached ? 'memory_limit' : 'grew');
        });
        onEnd.set(child, (end) => {
          const why: ReplacedBecause =
            stopped === 'time'
              ? 'time_limit'
              : stopped === 'start'
                ? 'start_timeout'
                : stopped === 'memory' || end.signal === 'SIGABRT' || OUT_OF_MEMORY.test(end.stderr)
                  ? 'memory_limit'
                  : 'crashed';
          settle(explainEnd(end, stopped, at), false, why);
        });
      });
    },
    get processes() {
      return alive.size;
    },
    async close() {
      closed = true;
      const all = [...alive];
      idle.length = 0;
      for (const child of all) child.kill();
      await Promise.all(all.map((child) => child.ended));
    },
  };
}
