import { describe, expect, it } from 'vitest';
import { createFairQueue } from './fair-queue.js';

// The queue in isolation: tasks are promises the test settles, so the order of starts is exact.
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the fair processing queue', () => {
  it("gives a tenant's one document the next free slot, however long another tenant's backlog", async () => {
    const queue = createFairQueue(2);
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const add = (owner: string, name: string) => {
      const g = gate();
      gates.set(name, g);
      return queue.add(owner, async () => {
        started.push(name);
        await g.opened;
        return name;
      });
    };
    const done = [1, 2, 3, 4, 5, 6].map((i) => add('a', `a${i}`));
    done.push(add('b', 'b1'));
    await tick();
    expect(started).toEqual(['a1', 'a2']);
    gates.get('a1')!.open();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    for (const name of ['a2', 'b1', 'a3', 'a4', 'a5', 'a6']) {
      gates.get(name)!.open();
      await tick();
    }
    expect(await Promise.all(done)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'b1']);
  });

  it.each([
    ['two tenants', { a: 4, b: 4 }, ['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']],
    ['three tenants, uneven', { a: 3, b: 1, c: 2 }, ['a', 'b', 'c', 'a', 'c', 'a']],
  ])('with one slot, serves %s in turn', async (_what, backlog, expected) => {
    const queue = createFairQueue(1);
    const started: string[] = [];
    const all: Array<Promise<unknown>> = [];
    for (const [owner, count] of Object.entries(backlog)) {
      for (let i = 0; i < count; i++) all.push(queue.add(owner, async () => void started.push(owner)));
    }
    await Promise.all(all);
    expect(started).toEqual(expected);
  });

  it('runs no more than its concurrency at once, and drops what has not started on clear', async () => {
    const queue = createFairQueue(2);
    const g = gate();
    let peak = 0;
    const results = Array.from({ length: 5 }, (_, i) =>
      queue.add(`t${i % 2}`, async () => {
        peak = Math.max(peak, queue.running);
        await g.opened;
        return i;
      }),
    );
    await tick();
    queue.clear();
    g.open();
    expect(await Promise.all(results)).toEqual([0, 1, undefined, undefined, undefined]);
    expect(peak).toBe(2);
  });
});
