import { createFairQueue } from './fair-queue.js';
import type { RunJob, RunQueue } from './run-queue.js';

/**
 * The run queue of one process: runs wait out their delay on a timer (holding no slot), then take turns
 * between tenants for `concurrency` slots. Nothing survives the process: on restart the processor queues
 * every document still `processing` again.
 * @example const queue = createLocalRunQueue({ concurrency: 2 }); queue.start(run); await queue.enqueue(jobs, 1500);
 */
export function createLocalRunQueue({ concurrency }: { concurrency: number }): RunQueue & { depth(): number } {
  const fair = createFairQueue(concurrency);
  const timers = new Set<NodeJS.Timeout>();
  let work: ((job: RunJob) => Promise<void>) | undefined;
  let stopped = false;
  const pending: RunJob[] = [];
  // Runs queued and not started yet (waiting out their delay, or for a slot): the queue's depth.
  let waiting = 0;

  const hand = (job: RunJob) => {
    if (stopped) return;
    if (!work) {
      pending.push(job);
      return;
    }
    const run = work;
    // The processor's work ends every run itself (a bug in it fails the run, see processor.ts); a
    // rejection here could only be a bug of that, and must not take the process down.
    void fair
      .add(job.tenant, () => {
        waiting--;
        return run(job);
      })
      .catch(() => {});
  };

  return {
    async enqueue(jobs, delayMs) {
      if (!stopped) waiting += jobs.length;
      for (const job of jobs) {
        if (delayMs <= 0) {
          hand(job);
          continue;
        }
        const timer = setTimeout(() => {
          timers.delete(timer);
          hand(job);
        }, delayMs);
        timers.add(timer);
      }
    },
    start(handler) {
      work = handler;
      for (const job of pending.splice(0)) hand(job);
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      fair.clear();
      waiting = 0;
    },
    depth: () => waiting,
  };
}
