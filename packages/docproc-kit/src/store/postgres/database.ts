import { StoreUnavailable } from '@docproc-kit/reference/store/store-unavailable.js';
import pg from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import type { Logger } from 'pino';

/** What runs queries: the pool, or one client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** The database every replica shares, through one pool per process. */
export interface Database extends Queryable {
  readonly pool: pg.Pool;
  /** `host:port/database` for messages: never the user's password. */
  readonly where: string;
  /** Runs `work` in one transaction (committed when it resolves, rolled back when it throws). */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs `work` while holding the session advisory lock `key`: replicas doing the same wait their turn. */
  exclusively<T>(key: number, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// How long a request waits for a connection, and a query for its answer, before the database counts as
// unavailable: far inside the HTTP request timeout, so a client gets a 503 rather than a hang.
export const CONNECT_TIMEOUT_MS = 5_000;
const QUERY_TIMEOUT_MS = 30_000;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
// SQLSTATEs of a server that is going away or cannot take the connection (class 08: connection exceptions).
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300']);
const CLIENT_GONE =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection ended|connect ECONNREFUSED/i;

/** Whether an error says the database could not be reached (rather than that a query was wrong). */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE.has(code) || code.startsWith('08'))) return true;
  if (error instanceof AggregateError) return error.errors.some(isConnectionFailure);
  return CLIENT_GONE.test(error.message);
}

/** `host:port/database` of a connection string, for people: the password never appears. */
function describeDatabase(url: string): string {
  try {
    const config = parseConnectionString(url);
    const host = config.host ?? 'localhost';
    return `${host}${config.port ? `:${config.port}` : ''}/${config.database ?? '(default database)'}`;
  } catch {
    return '(an unparsable database URL)';
  }
}

// Connection failures become StoreUnavailable (the API's 503); any other error is a bug and stays itself.
function translated(error: unknown, where: string): unknown {
  if (error instanceof StoreUnavailable || !isConnectionFailure(error)) return error;
  const reason = (error as { code?: string }).code ?? (error as Error).message;
  return new StoreUnavailable(`The database ${where} cannot be reached (${reason}).`, { cause: error });
}

/**
 * Opens a pool on the database at `url` (nothing is connected until the first query). Queries fail fast
 * when the database is down, as {@link StoreUnavailable}; the pool reconnects by itself when it is back.
 * @example const db = openDatabase(process.env.DOCPROC_DATABASE_URL!, { logger }); await db.query('SELECT 1');
 */
export function openDatabase(url: string, { logger, max = 10 }: { logger?: Pick<Logger, 'warn'>; max?: number } = {}): Database {
  const where = describeDatabase(url);
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    idleTimeoutMillis: 10_000,
    keepAlive: true,
    application_name: 'docproc',
  });
  // An idle connection the server cut (a restart): the pool drops it and makes a new one when needed.
  pool.on('error', (error) =>
    logger?.warn({ err: { message: error.message, code: (error as { code?: string }).code } }, 'database connection lost'),
  );

  // A client out of the pool has no listener of the pool's: a connection the server cuts while it sits
  // between queries (a restart) would be an uncaught 'error' that ends the process. The caller learns of it
  // from its next query; the connection is not handed out again.
  const checkOut = async () => {
    const client = await pool.connect().catch((error: unknown) => {
      throw translated(error, where);
    });
    let cut: Error | undefined;
    const onError = (error: Error) => {
      cut = error;
    };
    client.on('error', onError);
    return {
      client,
      lost: () => cut,
      /** Back to the pool, or ended when `broken` (a connection that failed is not handed out again). */
      release(broken: Error | undefined) {
        // A broken one keeps the listener: the pool ends it, and it may still report on its way out.
        if (!broken) client.off('error', onError);
        client.release(broken);
      },
    };
  };

  const query = async <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => {
    try {
      return await pool.query<R>(text, values);
    } catch (error) {
      throw translated(error, where);
    }
  };

  return {
    pool,
    where,
    query,
    async transaction(work) {
      const { client, lost, release } = await checkOut();
      const tx: Queryable = {
        query: async (text, values) => {
          try {
            return await client.query(text, values);
          } catch (error) {
            throw translated(error, where);
          }
        },
      };
      let broken: unknown;
      try {
        await tx.query('BEGIN');
        const result = await work(tx);
        await tx.query('COMMIT');
        return result;
      } catch (error) {
        broken = error;
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        release(broken instanceof StoreUnavailable ? broken : lost());
      }
    },
    async exclusively(key, work) {
      const { client, lost, release } = await checkOut();
      let broken: unknown;
      try {
        await client.query('SELECT pg_advisory_lock($1)', [key]);
        return await work();
      } catch (error) {
        broken = error;
        throw error;
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => {});
        // Ending a connection that broke frees the lock too.
        release(isConnectionFailure(broken) ? (broken as Error) : lost());
      }
    },
    close: () => pool.end(),
  };
}
