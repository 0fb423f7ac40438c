import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** How many connections a server keeps open, in all and per client address. */
export interface ConnectionLimits {
  /** Connections open at once. */
  maxConnections: number;
  /** Connections open at once from one client address; 0 turns the per-address cap off (behind a proxy every client has its address). */
  maxPerAddress: number;
  /**
   * Connections kept open beyond the caps, in all, so that the request each may carry is answered 503
   * instead of cut; past these a new connection is closed at once (a flood is shed).
   */
  maxOverLimit: number;
  /** How long a connection beyond the caps may take to send its request's headers before it is closed. */
  overLimitWaitMs: number;
  /**
   * How long a connection that has sent no request must have been open before a new one may close it
   * to make room: one just opened may be sending its request already.
   */
  idleGraceMs: number;
  /** Called on everything the limits do, e.g. to count evictions. */
  onEvent?: (event: ConnectionEvent) => void;
}

/** What the limits did, for metrics and logs. */
export interface ConnectionEvent {
  /**
   * `evicted`: a connection that sent no request (nothing, or half a header) closed to make room; `over-limit`: a new connection
   * kept beyond the caps, to be answered 503 if no room is free when its request arrives; `refused`: a
   * new connection closed at once (the caps and the room beyond them were full); `expired`: a connection
   * beyond the caps closed because its request's headers did not come in time; `unavailable`: a request
   * on a connection beyond the caps answered 503.
   */
  kind: 'evicted' | 'over-limit' | 'refused' | 'expired' | 'unavailable';
  /** The client address of the connection concerned. */
  address: string;
}

/** What the limits did so far, for logs and tests. */
export interface ConnectionCounts {
  /** Connections open within the caps. */
  open: number;
  /** Connections open beyond the caps (their request, when it comes, is answered 503 unless room is free by then). */
  overLimit: number;
  /** New connections closed at once. */
  refused: number;
  /** Connections that sent no request (nothing, or half a header) closed to make room for a new one, or beyond the caps for want of headers. */
  evicted: number;
  /** Requests answered 503 because they came beyond the caps. */
  unavailable: number;
}

/** The limits of one server: {@link ConnectionLimiter.admit} decides each request. */
export interface ConnectionLimiter {
  /**
   * True when the request may be handled; false when it came on a connection beyond the caps and no
   * room is free: the caller answers it 503 and the connection closes.
   */
  admit(req: IncomingMessage): boolean;
  counts(): ConnectionCounts;
}

interface Connection {
  socket: Socket;
  address: string;
  /** When it opened. */
  openedAt: number;
  /** Whether a request came on it: between requests it is left to the keep-alive timeout. */
  served: boolean;
  /** Kept beyond the caps until its request comes; undefined once within them. */
  overLimit?: NodeJS.Timeout;
}

/**
 * Caps a server's connections, in all and per client address, so that no address can keep others
 * out by opening connections and sending nothing (or half a header). A connection that carries a
 * request is never closed unanswered. Only connections that have sent no request and have been open
 * for `idleGraceMs` are closed to make room: a new connection from an address at its cap closes that
 * address's oldest such one; one that finds the server full closes the oldest such connection of the
 * address holding the most. When none qualifies, the new connection is kept beyond the caps (at most
 * `maxOverLimit` of them, shared fairly between addresses, each for `overLimitWaitMs`): when its
 * request arrives it is handled if room has been freed by then, and answered 503 otherwise. Replaces `server.maxConnections`, which closes
 * the new connection whatever it carries.
 * @example const limiter = limitConnections(server, { ...limits, onEvent: (e) => counter.inc({ kind: e.kind }) });
 */
export function limitConnections(server: Server, limits: ConnectionLimits): ConnectionLimiter {
  const bySocket = new Map<Socket, Connection>();
  // Connections within the caps, per address, in the order they were opened.
  const byAddress = new Map<string, Connection[]>();
  // Connections beyond the caps whose request has not come yet, per address, in the order they were opened.
  const waiting = new Map<string, Connection[]>();
  let within = 0;
  let overLimit = 0;
  const counted = { refused: 0, evicted: 0, unavailable: 0 };
  const report = (kind: ConnectionEvent['kind'], address: string) => limits.onEvent?.({ kind, address });

  // Only a connection that never carried a request (it sent nothing, or half a header) is closed to make
  // room. One between requests is not: its client may be sending the next one on it right now, and
  // would see a reset; the keep-alive timeout, which clients know and anticipate, closes it instead.
  const evictable = (c: Connection, now: number) => !c.served && now - c.openedAt >= limits.idleGraceMs;
  const oldestEvictable = (address: string, now: number) => byAddress.get(address)?.find((c) => evictable(c, now));
  // The address holding the most connections that has one to spare.
  const hogWithEvictable = (now: number) => {
    let best: string | undefined;
    for (const [address, list] of byAddress) {
      if ((best === undefined || list.length > byAddress.get(best)!.length) && list.some((c) => evictable(c, now))) best = address;
    }
    return best;
  };
  const evict = (connection: Connection) => {
    counted.evicted++;
    report('evicted', connection.address);
    forget(connection);
    connection.socket.destroy();
  };
  const remove = (lists: Map<string, Connection[]>, connection: Connection) => {
    const list = lists.get(connection.address);
    const at = list?.indexOf(connection) ?? -1;
    if (at < 0) return;
    list!.splice(at, 1);
    if (list!.length === 0) lists.delete(connection.address);
  };
  const forget = (connection: Connection) => {
    if (!bySocket.delete(connection.socket)) return;
    if (connection.overLimit) {
      clearTimeout(connection.overLimit);
      remove(waiting, connection);
      overLimit--;
      return;
    }
    within--;
    remove(byAddress, connection);
  };
  // Room beyond the caps for a connection from `address`: when it is full, the address with the most
  // connections waiting there gives up its oldest, if it holds more than `address` does, so one
  // address's flood cannot take that room from the others.
  const makeRoomBeyond = (address: string): boolean => {
    if (overLimit < limits.maxOverLimit) return true;
    let hog: Connection[] | undefined;
    for (const list of waiting.values()) if (!hog || list.length > hog.length) hog = list;
    if (!hog || hog.length <= (waiting.get(address)?.length ?? 0)) return false;
    evict(hog[0]!);
    return true;
  };
  // Room within the caps for a connection from `address`, made by closing an idle one if need be.
  const makeRoom = (address: string): boolean => {
    const now = Date.now();
    if (limits.maxPerAddress > 0 && (byAddress.get(address)?.length ?? 0) >= limits.maxPerAddress) {
      const idle = oldestEvictable(address, now);
      if (!idle) return false;
      evict(idle);
    }
    if (within >= limits.maxConnections) {
      const hog = hogWithEvictable(now);
      if (hog === undefined) return false;
      evict(oldestEvictable(hog, now)!);
    }
    return true;
  };
  const admitWithin = (connection: Connection) => {
    within++;
    byAddress.set(connection.address, [...(byAddress.get(connection.address) ?? []), connection]);
  };

  // Runs before http's own connection listener, so a refused socket is closed before it is parsed.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const connection: Connection = { socket, address, openedAt: Date.now(), served: false };
    if (makeRoom(address)) admitWithin(connection);
    else if (makeRoomBeyond(address)) {
      overLimit++;
      waiting.set(address, [...(waiting.get(address) ?? []), connection]);
      report('over-limit', address);
      connection.overLimit = setTimeout(() => {
        counted.evicted++;
        report('expired', address);
        socket.destroy();
      }, limits.overLimitWaitMs);
      connection.overLimit.unref();
    } else {
      counted.refused++;
      report('refused', address);
      return void socket.destroy();
    }
    bySocket.set(socket, connection);
    socket.once('close', () => forget(connection));
  });

  const admit = (req: IncomingMessage): boolean => {
    const connection = bySocket.get(req.socket);
    if (!connection) return true;
    if (connection.overLimit) {
      clearTimeout(connection.overLimit);
      remove(waiting, connection);
      if (!makeRoom(connection.address)) {
        counted.unavailable++;
        report('unavailable', connection.address);
        return false;
      }
      connection.overLimit = undefined;
      overLimit--;
      admitWithin(connection);
    }
    connection.served = true;
    return true;
  };

  return { admit, counts: () => ({ open: within, overLimit, ...counted }) };
}
