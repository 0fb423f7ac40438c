import { readdir } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { Logger } from 'pino';
import { type Database, isConnectionFailure } from './database.js';

/**
 * A reason not to start at all (exit 2): the database cannot be reached, or its schema is newer than this
 * code. The message names the host and database, never the password.
 */
export class DatabaseRefusal extends Error {
  readonly exitCode = 2;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseRefusal';
  }
}

/** The schema the store's tables live in (the job queue has its own, see the queue adapter). */
export const STORE_SCHEMA = 'docproc';
const MIGRATIONS_TABLE = 'pgmigrations';
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
// Compiled, the folder also holds declarations and source maps; they are not migrations.
const NOT_MIGRATIONS = '\\..*|.*\\.d\\.ts|.*\\.map';

/** The migrations this code knows, by name, in order. */
async function knownMigrations(): Promise<string[]> {
  const ignored = new RegExp(`^(${NOT_MIGRATIONS})$`);
  return (await readdir(MIGRATIONS_DIR))
    .filter((file) => !ignored.test(file))
    .map((file) => basename(file, extname(file)))
    .sort();
}

/**
 * Fails with a {@link DatabaseRefusal} unless the database answers.
 * @example await reachable(db);
 */
export async function reachable(db: Database): Promise<void> {
  try {
    await db.query('SELECT 1');
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    const reason = (cause as { code?: string }).code ?? (cause as Error).message;
    const unreachable = isConnectionFailure(cause);
    throw new DatabaseRefusal(
      unreachable
        ? `cannot reach the database ${db.where} (${reason}). Check --database-url (DOCPROC_DATABASE_URL) and that PostgreSQL is running.`
        : `the database ${db.where} refused the connection: ${(cause as Error).message}`,
      { cause },
    );
  }
}

/**
 * Brings the store's schema up to date with node-pg-migrate (versioned migrations in ./migrations, applied
 * in one transaction under an advisory lock, so replicas starting at once wait for the first and then find
 * nothing to do). Refuses a database whose schema has migrations this code does not know: it was set up by
 * a newer version, whose data this one could misread.
 * @example await migrate(db, url, logger);
 */
export async function migrate(db: Database, url: string, logger: Pick<Logger, 'info'>): Promise<void> {
  const known = await knownMigrations();
  const { rows } = await db.query<{ table: string | null }>('SELECT to_regclass($1)::text AS table', [
    `${STORE_SCHEMA}.${MIGRATIONS_TABLE}`,
  ]);
  if (rows[0]?.table) {
    const applied = await db.query<{ name: string }>(`SELECT name FROM ${STORE_SCHEMA}.${MIGRATIONS_TABLE}`);
    const unknown = applied.rows.map((r) => r.name).filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      throw new DatabaseRefusal(
        `the database ${db.where} has a newer schema than this version of docproc (migration${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} unknown here). ` +
          'Run the newer docproc against it, or give this one another database.',
      );
    }
  }
  const applied = await runner({
    databaseUrl: url,
    dir: MIGRATIONS_DIR,
    ignorePattern: NOT_MIGRATIONS,
    migrationsTable: MIGRATIONS_TABLE,
    schema: STORE_SCHEMA,
    migrationsSchema: STORE_SCHEMA,
    createSchema: true,
    createMigrationsSchema: true,
    direction: 'up',
    checkOrder: true,
    singleTransaction: true,
    advisoryLockMode: 'wait',
    log: () => {},
  });
  if (applied.length > 0) logger.info({ migrations: applied.map((m) => m.name) }, 'database schema migrated');
}
