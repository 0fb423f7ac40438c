import type { Queryable } from '../../store/postgres/database.js';

/**
 * Places in line for `count` new runs of `tenant`, shared by every replica (start-time fair queuing): a
 * tenant's runs are two apart, after its own last one; a tenant with nothing in line starts just after the
 * run started last anywhere (odd, so between two places of a backlog). Served in tag order, a tenant's
 * backlog never starves another tenant's single document: it waits for at most one run of each other
 * tenant. Tags only grow; pg-boss orders by an int priority, so they last 2^31 runs.
 * @example const tags = await nextTags(db, tenant, 3); // e.g. [41, 43, 45]
 */
export async function nextTags(db: Queryable, tenant: string, count: number): Promise<number[]> {
  const { rows } = await db.query<{ last_tag: string }>(
    `INSERT INTO docproc.run_tags AS t (tenant, last_tag)
     VALUES ($1, (SELECT started FROM docproc.run_clock) + 1 + 2 * ($2 - 1))
     ON CONFLICT (tenant) DO UPDATE SET last_tag = GREATEST((SELECT started FROM docproc.run_clock) + 1, t.last_tag + 2) + 2 * ($2 - 1)
     RETURNING last_tag`,
    [tenant, count],
  );
  const last = Number(rows[0]!.last_tag);
  return Array.from({ length: count }, (_, i) => last - 2 * (count - 1 - i));
}

/** Records that runs up to `tag` have started (the line moves on). */
export async function runStarted(db: Queryable, tag: number): Promise<void> {
  await db.query('UPDATE docproc.run_clock SET started = GREATEST(started, $1)', [tag]);
}
