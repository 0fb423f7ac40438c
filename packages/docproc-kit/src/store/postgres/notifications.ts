import pg from 'pg';
import type { Logger } from 'pino';

/** What a channel's listener hears: a payload, or (`undefined`) that notifications may have been missed. */
export type Listener = (payload: string | undefined) => void;

/** LISTEN/NOTIFY between the replicas of one database. */
export interface Notifications {
  /** Listens on `channel` (a plain identifier). Resolves once listening (or once it will be, after a reconnect). */
  listen(channel: string, listener: Listener): Promise<void>;
  /** Stops listening and closes the connection. */
  close(): Promise<void>;
}

const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 5_000;

/**
 * One connection of its own that LISTENs for every channel of this process. When it is lost (the database
 * restarts) it reconnects by itself, backing off, and tells every listener that notifications may have been
 * missed meanwhile (`undefined`), so each reloads what it caches.
 * @example const notifications = await openNotifications(url, logger); await notifications.listen('docproc_controls', reload);
 */
export async function openNotifications(url: string, logger?: Pick<Logger, 'warn' | 'info'>): Promise<Notifications> {
  const listeners = new Map<string, Listener[]>();
  let client: pg.Client | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let wait = RECONNECT_FIRST_MS;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      application_name: 'docproc-listen',
    });
    next.on('notification', (message) => {
      for (const listener of listeners.get(message.channel) ?? []) listener(message.payload);
    });
    next.on('error', () => {
      // 'end' follows and reconnects.
    });
    next.on('end', () => {
      if (closed || client !== next) return;
      client = undefined;
      logger?.warn('lost the database connection that listens for changes of other replicas; reconnecting');
      schedule();
    });
    await next.connect();
    // Closed during the handshake: nobody will end this connection later.
    if (closed) return void (await next.end().catch(() => {}));
    for (const channel of listeners.keys()) await next.query(`LISTEN ${channel}`);
    client = next;
  };

  const schedule = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(async () => {
      retryTimer = undefined;
      try {
        await connect();
        wait = RECONNECT_FIRST_MS;
        logger?.info('listening for changes of other replicas again');
        // Whatever was notified while the connection was down is lost: every listener reloads.
        for (const all of listeners.values()) for (const listener of all) listener(undefined);
      } catch {
        wait = Math.min(wait * 2, RECONNECT_MAX_MS);
        schedule();
      }
    }, wait);
    retryTimer.unref();
  };

  await connect();

  return {
    async listen(channel, listener) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
      const known = listeners.get(channel);
      if (known) {
        known.push(listener);
        return;
      }
      listeners.set(channel, [listener]);
      await client?.query(`LISTEN ${channel}`).catch(() => {
        // The connection is going away; the reconnect listens on every channel.
      });
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await client?.end().catch(() => {});
    },
  };
}
