import { Worker } from 'node:worker_threads';
import type { ObservedExchange, Violation } from '@docproc-kit/conformance/observe';
import type { WriteOptions } from '../recording/seed-recording.js';
import type { JudgedReport, Judging, JudgingSettings, ProxySummary } from './judging.js';

/** The most bytes of exchanges waiting for the judging thread. */
export const MAX_QUEUED_BYTES = 32 * 1024 * 1024;

/** Messages to the judging thread. */
export type WorkerRequest =
  | { type: 'judge'; seen: ObservedExchange }
  | { type: 'newest'; id: number; limit: number }
  | { type: 'total' | 'summary' | 'report'; id: number }
  | { type: 'recording'; id: number; options: WriteOptions };

/** Messages from the judging thread. */
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'judged' }
  | { type: 'log'; line: string }
  | { type: 'answer'; id: number; result: unknown };

// Compiled, the worker is judging-thread.js beside this file; from source (tests, tsx) it is the .ts file, loaded through tsx.
function workerFile(): { url: URL; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  return {
    url: new URL(fromSource ? './judging-thread.ts' : './judging-thread.js', import.meta.url),
    // The sources read the other packages' sources too (their `docproc-source` export condition).
    execArgv: fromSource ? ['--conditions=docproc-source', '--import', 'tsx'] : [],
  };
}

/**
 * Judging on a worker thread: the forwarding thread only copies what the judge keeps and posts it. The
 * thread loads the contract itself (from `settings.spec`); `log` gets each violation's line.
 * @example const judging = await createWorkerJudging(settings, (line) => process.stdout.write(`${line}\n`));
 */
export async function createWorkerJudging(settings: JudgingSettings, log?: (line: string) => void): Promise<Judging> {
  const { url, execArgv } = workerFile();
  const worker = new Worker(url, { workerData: settings, execArgv });
  let pending = 0;
  // What waits for the judge is bounded: past it an exchange passes unjudged (counted), never queued without end.
  const queued: number[] = [];
  let queuedBytes = 0;
  let dropped = 0;
  let nextId = 0;
  let idle: Array<() => void> = [];
  const answers = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let failed: Error | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'ready') resolve();
      else if (reply.type === 'log') log?.(reply.line);
      else if (reply.type === 'answer') {
        answers.get(reply.id)?.resolve(reply.result);
        answers.delete(reply.id);
      } else {
        pending -= 1;
        queuedBytes -= queued.shift() ?? 0;
        if (pending === 0) for (const wake of idle.splice(0)) wake();
      }
    });
    worker.once('error', (error) => {
      failed = error instanceof Error ? error : new Error(String(error));
      log?.(`docproc proxy: the judging thread stopped: ${failed.message}; traffic still passes, unjudged`);
      reject(failed);
      for (const wake of idle.splice(0)) wake();
      for (const answer of answers.values()) answer.reject(failed);
      answers.clear();
    });
  });
  await ready;
  const ask = <T>(
    request: { type: 'newest'; limit: number } | { type: 'total' | 'summary' | 'report' } | { type: 'recording'; options: WriteOptions },
  ): Promise<T> => {
    if (failed) return Promise.reject(failed);
    const id = ++nextId;
    return new Promise<T>((resolve, reject) => {
      answers.set(id, { resolve: resolve as (result: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  };
  return {
    judge(seen) {
      if (failed) return;
      const size = seen.responseBody.bytes.length + 4_096;
      if (queuedBytes + size > MAX_QUEUED_BYTES) {
        if (dropped++ === 0)
          log?.(`docproc proxy: the judge is behind (${pending} exchanges waiting): exchanges pass unjudged until it catches up`);
        return;
      }
      pending += 1;
      queued.push(size);
      queuedBytes += size;
      worker.postMessage({ type: 'judge', seen } satisfies WorkerRequest);
    },
    settled: () => (pending === 0 || failed ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve))),
    newest: (limit) => ask<Violation[]>({ type: 'newest', limit }),
    total: () => ask<number>({ type: 'total' }),
    summary: async () => {
      const summary = await ask<ProxySummary>({ type: 'summary' });
      return {
        ...summary,
        exchanges: { ...summary.exchanges, total: summary.exchanges.total + dropped, notJudged: summary.exchanges.notJudged + dropped },
      };
    },
    report: () => ask<JudgedReport>({ type: 'report' }),
    recording: (options) => ask({ type: 'recording', options }),
    async close() {
      idle = [];
      await worker.terminate();
    },
  };
}
