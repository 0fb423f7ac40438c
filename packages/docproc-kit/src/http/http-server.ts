import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { requestIdOf } from '@docproc-kit/reference/http/request-id.js';
import { type ConnectionCounts, type ConnectionEvent, limitConnections } from './connection-limits.js';
import { createDrain } from './drain.js';
import { DEFAULT_LINGERING, type LingeringLimits, lingeringResponse, type OnLingerEnd } from './lingering-close.js';

export type { LingeringLimits, OnLingerEnd } from './lingering-close.js';

import { answerProblem, protocolError, rawProblemAnswer } from './problem-answer.js';
import { refuseUnavailable } from './unavailable.js';

/** How long a client may take; slow clients are cut so they cannot hold connections forever. */
export interface HttpTimeouts {
  /** Time to receive a request's headers (default 10 s): what a slowloris client exhausts. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included (default 5 min: a 25 MiB upload on a slow link). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open (default 5 s). */
  keepAliveTimeoutMs: number;
}

/**
 * Connections open at once (default 1,024). Node raises its open-files limit to the hard limit (4,096
 * or more on usual systems), so this many sockets, plus those kept beyond the caps, leave the server
 * the files it writes. At the cap, a new connection closes the oldest one that sent no request of the
 * address holding the most, or is kept to be answered 503 when there is none (see connection-limits.ts).
 */
export const DEFAULT_MAX_CONNECTIONS = 1_024;

/**
 * Connections open at once from one client address (default 256: a script's burst of 200 concurrent
 * uploads, each on a connection of its own as `Promise.all` over `fetch` opens them, fits, as do forty
 * browsers behind one NAT at 6 per host), so one address can hold at most a quarter of the default
 * 1,024; 0 turns it off, as a deployment behind a proxy must (every client then has the proxy's address).
 */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;

/**
 * Connections kept beyond the caps, in all (default 256), each for the headers timeout, so that their
 * requests are answered 503 with Retry-After rather than cut; past these, a new connection is closed.
 */
export const DEFAULT_MAX_OVER_LIMIT = 256;

/** How long a connection that sent no request must have been open before a new one may close it (1 s). */
export const DEFAULT_IDLE_GRACE_MS = 1_000;

/** What a request beyond the connection caps is told to wait before retrying, in seconds. */
export const OVER_LIMIT_RETRY_AFTER_S = 1;

/** The timeouts `docproc serve` uses unless told otherwise. */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 300_000, keepAliveTimeoutMs: 5_000 };

/** How long a shutdown lets requests already being handled finish (default 10 s). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

// Errors Node raises before a request reaches the request listener (a timeout, malformed HTTP, oversized
// headers): answered with the same problem+json as everything else instead of Node's bare text.
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const detail =
    status === 408
      ? 'The request was not received in time.'
      : status === 431
        ? 'The request headers are too large.'
        : 'The request is not valid HTTP.';
  socket.end(rawProblemAnswer(protocolError(status, detail), randomUUID()));
}

// An `Expect` other than 100-continue (which Node answers itself) never reaches the request listener; Node's own
// answer is a bare 417. This one is a problem with a request id, like every other answer.
function answerExpectation(req: IncomingMessage, res: ServerResponse): void {
  const detail = `The server supports no Expect but "100-continue" (got ${JSON.stringify(String(req.headers.expect).slice(0, 100))}).`;
  answerProblem(req, res, protocolError(417, detail), { requestId: requestIdOf(req), close: true });
}

// A request on a connection kept beyond the caps, with no room freed by the time it arrived.
function refuseOverLimit(req: IncomingMessage, res: ServerResponse): void {
  const detail = `The server has too many connections open (from this address, or in all); nothing was done. Retry in ${OVER_LIMIT_RETRY_AFTER_S} s.`;
  refuseUnavailable(req, res, detail, OVER_LIMIT_RETRY_AFTER_S);
}

/** A listening HTTP server with a graceful close. */
export interface ListeningServer {
  server: Server;
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  /**
   * Shuts down (see drain.ts): no new connection is accepted, and a new request on one already
   * open is answered 503 with Retry-After; requests already being handled finish and are answered,
   * with `Connection: close`. Past `graceMs`, nothing they have not stored yet is stored, and the
   * connections are cut once the requests whose body had arrived are answered.
   */
  close(graceMs?: number): Promise<void>;
  /** What the connection limits did so far, and the connections open now (the metrics). */
  connections(): ConnectionCounts;
}

/**
 * Listens on host:port (0 picks a free one) with the given timeouts and connection caps (in all, and
 * per client address), and resolves once listening.
 * @example const { url, close } = await listen(app, { port: 4010, host: '127.0.0.1' });
 */
export function listen(
  app: RequestListener,
  {
    port,
    host,
    timeouts = {},
    maxConnections = DEFAULT_MAX_CONNECTIONS,
    maxConnectionsPerAddress = DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
    maxOverLimit = DEFAULT_MAX_OVER_LIMIT,
    idleGraceMs = DEFAULT_IDLE_GRACE_MS,
    onConnectionEvent,
    lingering = {},
    onLingerEnd,
  }: {
    port: number;
    host: string;
    timeouts?: Partial<HttpTimeouts>;
    maxConnections?: number;
    maxConnectionsPerAddress?: number;
    /** Connections kept beyond the caps to be answered 503 (see connection-limits.ts). */
    maxOverLimit?: number;
    idleGraceMs?: number;
    /** Told of every eviction, refusal and 503 of the connection limits (e.g. to count them). */
    onConnectionEvent?: (event: ConnectionEvent) => void;
    /** How long and how much a connection answered before its body arrived keeps being read (see lingering-close.ts). */
    lingering?: Partial<LingeringLimits>;
    /** Told how each lingering connection ended. */
    onLingerEnd?: OnLingerEnd;
  },
): Promise<ListeningServer> {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = { ...DEFAULT_HTTP_TIMEOUTS, ...timeouts };
  return new Promise((resolve, reject) => {
    const server = createServer({
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
      ServerResponse: lingeringResponse({ ...DEFAULT_LINGERING, ...lingering }, onLingerEnd),
    });
    const drain = createDrain(server, app);
    const connections = limitConnections(server, {
      maxConnections,
      maxPerAddress: maxConnectionsPerAddress,
      maxOverLimit,
      overLimitWaitMs: headersTimeoutMs,
      idleGraceMs,
      onEvent: onConnectionEvent,
    });
    server.on('request', (req, res) => (connections.admit(req) ? drain.listener(req, res) : refuseOverLimit(req, res)));
    server.keepAliveTimeout = keepAliveTimeoutMs;
    server.on('clientError', answerClientError);
    server.on('checkExpectation', answerExpectation);
    server.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      // A wildcard address is not something a browser can open.
      const wildcard = address.address === '0.0.0.0' || address.address === '::';
      const shownHost = wildcard ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        server,
        port: address.port,
        url: `http://${shownHost}:${address.port}`,
        close: (graceMs = DEFAULT_SHUTDOWN_GRACE_MS) => drain.close(graceMs),
        connections: connections.counts,
      });
    });
  });
}
