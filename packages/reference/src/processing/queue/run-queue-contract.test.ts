import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { until } from '@docproc-kit/test-support/reference-server.js';
import { openSharedQueues } from '@docproc-kit/test-support/shared-queues.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLocalRunQueue } from './local-run-queue.js';
import type { RunJob, RunQueue } from './run-queue.js';

// One throwaway PostgreSQL cluster for the file; each shared queue gets a database of its own.
let cluster: PostgresCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});
const cleanups: Array<() => Promise<void>> = [];

// Every adapter of the run-queue port hands runs out the same way; runs here are promises the test
// settles, so what started when is decided by events.
const ADAPTERS: Array<{ name: string; open(concurrency: number): Promise<RunQueue> }> = [
  { name: 'local', open: async (concurrency) => createLocalRunQueue({ concurrency }) },
  {
    name: 'pg-boss (PostgreSQL)',
    async open(concurrency) {
      const shared = await openSharedQueues(await cluster!.createDatabase(), [concurrency]);
      cleanups.push(shared.close);
      return shared.queues[0]!;
    },
  },
];

const opened: RunQueue[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((queue) => queue.stop()));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function worker() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const name = (job: RunJob) => `${job.tenant}-${job.documentId}`;
  return {
    started,
    work: (job: RunJob) =>
      new Promise<void>((resolve) => {
        started.push(name(job));
        finishers.set(name(job), resolve);
      }),
    finish: (which: string) => finishers.get(which)?.(),
    whenStarted: (count: number) => until(async () => started.length >= count, 10_000),
  };
}
const job = (tenant: string, documentId: number): RunJob => ({ tenant, documentId, attempt: 1 });

describe.each(ADAPTERS)('the $name run queue', (adapter) => {
  const open = async (concurrency: number) => {
    const queue = await adapter.open(concurrency);
    opened.push(queue);
    return queue;
  };

  it('runs at most its concurrency at once, and the next as soon as a slot frees', async () => {
    const queue = await open(2);
    const w = worker();
    queue.start(w.work);
    await queue.enqueue([job('a', 1), job('a', 2), job('a', 3)], 0);
    await w.whenStarted(2);
    expect(w.started).toEqual(['a-1', 'a-2']);
    w.finish('a-1');
    await w.whenStarted(3);
    expect(w.started).toEqual(['a-1', 'a-2', 'a-3']);
  });

  it("gives another tenant's run the next free slot, ahead of a backlog", async () => {
    const queue = await open(1);
    const w = worker();
    queue.start(w.work);
    await queue.enqueue([job('a', 1), job('a', 2), job('a', 3)], 0);
    await w.whenStarted(1);
    await queue.enqueue([job('b', 9)], 0);
    w.finish('a-1');
    await w.whenStarted(2);
    expect(w.started).toEqual(['a-1', 'b-9']);
  });

  it('starts no run before its delay, and a delayed run holds no slot meanwhile', async () => {
    const queue = await open(1);
    const w = worker();
    queue.start(w.work);
    const queued = Date.now();
    await queue.enqueue([job('a', 1)], 300);
    await queue.enqueue([job('b', 2)], 0);
    await w.whenStarted(1);
    expect(w.started).toEqual(['b-2']);
    w.finish('b-2');
    await w.whenStarted(2);
    expect(Date.now() - queued).toBeGreaterThanOrEqual(290);
  });

  it('starts nothing more once stopped', async () => {
    const queue = await open(1);
    const w = worker();
    queue.start(w.work);
    await queue.enqueue([job('a', 1), job('a', 2)], 0);
    await queue.enqueue([job('a', 3)], 50);
    await w.whenStarted(1);
    await queue.stop();
    w.finish('a-1');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(w.started).toEqual(['a-1']);
  });
});
