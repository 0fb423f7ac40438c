/** Runs tasks with bounded concurrency, taking turns between owners. */
export interface FairQueue {
  /** Queues a task of `owner`; resolves with its result once it has run (undefined if cleared first). */
  add<T>(owner: string, task: () => Promise<T>): Promise<T | undefined>;
  /** Drops every task not yet started (their promises resolve to undefined). */
  clear(): void;
  /** How many tasks are running. */
  readonly running: number;
}

interface Job {
  run: () => Promise<void>;
  drop: () => void;
}

/**
 * A queue that serves owners (tenants) in turn: whenever a slot frees up it goes to the next owner
 * with work waiting, round-robin, so one owner's backlog never starves another: a newly queued
 * task waits for at most one task of each other owner to start before its own. Within an owner,
 * tasks run in the order they were added. (p-queue serves first come, first served only.)
 * @example const queue = createFairQueue(2); await queue.add(tenant, () => extract(path));
 */
export function createFairQueue(concurrency: number): FairQueue {
  const waiting = new Map<string, Job[]>();
  // When each owner last had a task started; the waiting owner served longest ago goes next. Kept
  // for every owner seen (one number per tenant), so an owner whose task just started does not
  // jump the line by adding another.
  const lastStarted = new Map<string, number>();
  let starts = 0;
  let running = 0;

  const nextOwner = () => {
    let best: string | undefined;
    for (const owner of waiting.keys()) {
      if (best === undefined || (lastStarted.get(owner) ?? -1) < (lastStarted.get(best) ?? -1)) best = owner;
    }
    return best!;
  };

  const pump = () => {
    while (running < concurrency && waiting.size > 0) {
      const owner = nextOwner();
      const jobs = waiting.get(owner)!;
      const job = jobs.shift()!;
      if (jobs.length === 0) waiting.delete(owner);
      lastStarted.set(owner, starts++);
      running++;
      void job.run().finally(() => {
        running--;
        pump();
      });
    }
  };

  return {
    add(owner, task) {
      return new Promise((resolve, reject) => {
        const job: Job = { run: () => task().then(resolve, reject), drop: () => resolve(undefined) };
        const jobs = waiting.get(owner);
        if (jobs) jobs.push(job);
        else waiting.set(owner, [job]);
        pump();
      });
    },
    clear() {
      const dropped = [...waiting.values()].flat();
      waiting.clear();
      for (const job of dropped) job.drop();
    },
    get running() {
      return running;
    },
  };
}
