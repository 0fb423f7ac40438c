import { StoreUnavailable } from '@docproc-kit/reference/store/store-unavailable.js';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';

// A connection checked out of the pool (a transaction, an advisory lock held while other work runs) that the
// database cuts while it sits between queries (a restart) must fail what it was doing, not end the process
// with an uncaught 'error', and the pool must serve again once the database is back.
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

describe('a connection the database cuts while it is checked out', () => {
  it.each([
    ['held for an advisory lock while other work runs', 'exclusively'],
    ['in a transaction, between two queries', 'transaction'],
  ] as const)(
    '(%s) does not end the process, and the pool serves again once the database is back',
    async (_what, how) => {
      const db = openDatabase(await cluster.createDatabase());
      let halted = false;
      try {
        let resume!: () => void;
        const paused = new Promise<void>((resolve) => {
          resume = resolve;
        });
        let entered!: () => void;
        const inside = new Promise<void>((resolve) => {
          entered = resolve;
        });
        const holding =
          how === 'exclusively'
            ? db.exclusively(42, async () => {
                entered();
                await paused;
                return 'the work finished';
              })
            : db.transaction(async (tx) => {
                await tx.query('SELECT 1');
                entered();
                await paused;
                await tx.query('SELECT 2');
                return 'committed';
              });
        const outcome = holding.then(
          (value) => value,
          (error: unknown) => error,
        );
        await inside;
        await cluster.halt();
        halted = true;
        // The server's goodbye reaches the idle connection meanwhile, while nothing is asked of it (a later
        // arrival fails the next query all the same; this is what made the process end).
        await new Promise((resolve) => setTimeout(resolve, 200));
        resume();
        const result = await outcome;
        if (how === 'exclusively') expect(result).toBe('the work finished');
        else expect(result).toBeInstanceOf(StoreUnavailable);
        await cluster.start();
        halted = false;
        expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
      } finally {
        if (halted) await cluster.start();
        await db.close();
      }
    },
    60_000,
  );
});
