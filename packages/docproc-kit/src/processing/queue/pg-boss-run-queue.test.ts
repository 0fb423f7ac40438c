import type { RunJob } from '@docproc-kit/reference/processing/queue/run-queue.js';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { until } from '@docproc-kit/test-support/reference-server.js';
import { openSharedQueues, type SharedQueuesOptions } from '@docproc-kit/test-support/shared-queues.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PgBossRunQueue } from './pg-boss-run-queue.js';

// What only the shared queue has: several replicas (each a queue on its own pool) on one database.
let cluster: PostgresCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function replicas(concurrencies: number[], options?: SharedQueuesOptions): Promise<PgBossRunQueue[]> {
  const { queues, close } = await openSharedQueues(await cluster!.createDatabase(), concurrencies, options);
  cleanups.push(close);
  cleanups.push(async () => void (await Promise.all(queues.map((q) => q.stop()))));
  return queues;
}

// Runs that the test ends; `started` records which replica started what.
function worker() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  return {
    started,
    on: (replica: string) => (job: RunJob) =>
      new Promise<void>((resolve) => {
        started.push(`${replica}:${job.tenant}-${job.documentId}`);
        finishers.set(`${job.tenant}-${job.documentId}`, resolve);
      }),
    finish: (which: string) => finishers.get(which)?.(),
    whenStarted: (count: number, timeoutMs = 10_000) => until(async () => started.length >= count, timeoutMs),
  };
}
const job = (tenant: string, documentId: number, attempt = 1): RunJob => ({ tenant, documentId, attempt });
const runs = (started: string[]) => started.map((s) => s.split(':')[1]);

describe('the pg-boss run queue shared by replicas', () => {
  it("gives another tenant's run the next free slot on any replica, ahead of a backlog queued through another", async () => {
    const [one, two] = await replicas([1, 1]);
    const w = worker();
    one!.start(w.on('one'));
    two!.start(w.on('two'));
    await one!.enqueue(
      [1, 2, 3, 4, 5, 6].map((id) => job('a', id)),
      0,
    );
    await w.whenStarted(2);
    await two!.enqueue([job('b', 9)], 0);
    w.finish('a-1');
    await w.whenStarted(3);
    // The first two are claimed at once by the two replicas (SKIP LOCKED), so either may report first.
    expect(runs(w.started).slice(0, 2).sort()).toEqual(['a-1', 'a-2']);
    expect(runs(w.started)[2]).toBe('b-9');
  });

  it('hands each run to one replica, and a run queued twice (start-up recovery on each replica) runs once', async () => {
    // More slots (12) than runs (6): a run queued twice would find a free slot and start twice.
    const [one, two, three] = await replicas([4, 4, 4]);
    const w = worker();
    for (const [name, queue] of [
      ['one', one],
      ['two', two],
      ['three', three],
    ] as const)
      queue!.start(w.on(name));
    const jobs = Array.from({ length: 6 }, (_, i) => job('a', i + 1));
    await Promise.all([one!.enqueue(jobs, 0), two!.enqueue(jobs, 0), three!.enqueue(jobs.slice(0, 3), 0)]);
    await w.whenStarted(6);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runs(w.started).sort()).toEqual(['a-1', 'a-2', 'a-3', 'a-4', 'a-5', 'a-6']);
  });

  it('hands a run whose replica died to another once its lease runs out, and one that stopped at once', async () => {
    const [dying, stopping, survivor] = await replicas([1, 1, 2], { leaseMs: 1_000, leaseCheckEveryS: 1 });
    const w = worker();
    dying!.start(w.on('dying'));
    await dying!.enqueue([job('a', 1)], 0);
    await w.whenStarted(1);
    await dying!.abandon();
    stopping!.start(w.on('stopping'));
    await stopping!.enqueue([job('b', 2)], 0);
    await w.whenStarted(2);
    await stopping!.stop();
    survivor!.start(w.on('survivor'));
    // The stopped replica's run at once; the dead one's after its lease (1 s) and a maintenance round (1 s).
    expect(await w.whenStarted(4, 20_000)).toBe(true);
    expect(w.started.slice(0, 2)).toEqual(['dying:a-1', 'stopping:b-2']);
    expect(w.started.slice(2).sort()).toEqual(['survivor:a-1', 'survivor:b-2']);
  });

  it('starts a delayed run on the replica that is free when the delay ends, not before', async () => {
    const [one, two] = await replicas([1, 1]);
    const w = worker();
    two!.start(w.on('two'));
    const queued = Date.now();
    await one!.enqueue([job('a', 1)], 400);
    await w.whenStarted(1);
    expect(Date.now() - queued).toBeGreaterThanOrEqual(390);
    expect(w.started).toEqual(['two:a-1']);
  });
});
