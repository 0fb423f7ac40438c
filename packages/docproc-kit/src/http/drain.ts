import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { SHUTDOWN_RETRY_AFTER_S } from '@docproc-kit/reference/http/exchange.js';
import { endRequest } from './request-lifetime.js';
import { refuseUnavailable } from './unavailable.js';

/**
 * Once the grace period is over, how long requests whose body has fully arrived may still take to
 * answer (one being stored must be answered), before every connection is cut.
 */
export const ANSWER_WAIT_MS = 5_000;

/** A server's requests, followed so it can shut down answering everything it did. */
export interface Drain {
  /** The server's request listener: the app's, until the shutdown starts. */
  listener: RequestListener;
  /** Shuts down; resolves once every connection is closed. Idempotent. */
  close(graceMs: number): Promise<void>;
}

// A request that arrives once the shutdown started (on a connection already open: new connections are
// no longer accepted) is refused: by then a restarted server, or another instance, answers.
function refuse(req: IncomingMessage, res: ServerResponse): void {
  const detail = `The server is shutting down and takes no new requests; nothing was done. Retry in ${SHUTDOWN_RETRY_AFTER_S} s.`;
  refuseUnavailable(req, res, detail, SHUTDOWN_RETRY_AFTER_S);
}

/**
 * Follows `app`'s requests for a graceful shutdown. `close(graceMs)`: from that moment no connection
 * is accepted (a client trying is refused, so it knows nothing was sent), every answer carries
 * `Connection: close`, and a request arriving on a connection already open is a 503
 * `service_unavailable` with `Retry-After`; requests already being handled finish and are answered.
 * When they are all answered, the idle connections are closed and the server with them. If the grace period ends first, their signals
 * (see request-lifetime.ts) are aborted, so nothing not yet stored is stored; those still receiving
 * their body are cut; those whose body arrived get {@link ANSWER_WAIT_MS} more to answer (an upload
 * being stored is answered), then every connection is cut.
 * @example const drain = createDrain(server, app); server.on('request', drain.listener); await drain.close(10_000);
 */
export function createDrain(server: Server, app: RequestListener): Drain {
  // Requests that arrived before the shutdown and are not answered yet.
  const open = new Map<IncomingMessage, ServerResponse>();
  let draining = false;
  let closing: Promise<void> | undefined;
  let whenAnswered: (() => void) | undefined;

  const listener: RequestListener = (req, res) => {
    if (draining) return refuse(req, res);
    open.set(req, res);
    // `on`, not `once`: a response closes once, and this runs on every request.
    res.on('close', () => {
      open.delete(req);
      if (open.size === 0) whenAnswered?.();
    });
    app(req, res);
  };

  const close = (graceMs: number) => {
    closing ??= new Promise<void>((closed) => {
      draining = true;
      // Only the listening socket: http's own close() would also close the idle keep-alive
      // connections now, and a client that is just sending its next request on one would get a
      // reset instead of the 503 it gets while the connection stays open. Settles once every
      // connection has closed.
      NetServer.prototype.close.call(server, () => closed());
      for (const res of open.values()) if (!res.headersSent) res.setHeader('Connection', 'close');
      const timers: NodeJS.Timeout[] = [];
      const finish = () => {
        whenAnswered = undefined;
        for (const timer of timers) clearTimeout(timer);
        // http's close() now: it closes the idle connections and stops Node's timeout checks (the
        // listening socket is closed already). Refused requests close their connections once
        // answered; one whose refused request never finishes its body is cut at the end of the grace
        // period.
        server.close();
        const cut = setTimeout(() => server.closeAllConnections(), Math.max(0, deadline - Date.now()));
        cut.unref();
      };
      const deadline = Date.now() + graceMs;
      whenAnswered = finish;
      if (open.size === 0) return finish();
      timers.push(
        setTimeout(() => {
          for (const [req, res] of open) {
            endRequest(req, 'The server is shutting down: its grace period ended before this request was answered.');
            if (!req.complete) res.socket?.destroy();
          }
          if (open.size === 0) return;
          timers.push(
            setTimeout(() => {
              server.closeAllConnections();
              finish();
            }, ANSWER_WAIT_MS),
          );
        }, graceMs),
      );
    });
    return closing;
  };

  return { listener, close };
}
