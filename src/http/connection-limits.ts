import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How many connections a server keeps open, in all and per client address. */
export interface ConnectionLimits {
  /** Connections open at once. */
  maxConnections: number;
  /** Connections open at once from one client address; 0 turns the per-address cap off (behind a proxy every client has its address). */
  maxPerAddress: number;
}

interface Connection {
  socket: Socket;
  address: string;
  /** Requests received on it and not yet answered: a connection with none is idle (or has not finished its headers). */
  busy: number;
}

/** What the limits did so far, for logs and tests. */
export interface ConnectionCounts {
  open: number;
  /** New connections closed at once: their address, or the server, was full of connections all busy. */
  refused: number;
  /** Idle or header-less connections closed to make room for a new one. */
  evicted: number;
}

/**
 * Caps a server's connections, in all and per client address, so that no address can keep others
 * out by opening connections and sending nothing (or half a header). Only connections with no
 * request being handled are ever closed to make room: a new connection from an address at its cap
 * closes that address's oldest idle one; one that finds the server full closes the oldest idle
 * connection of the address holding the most. When none is idle, the new connection is closed at
 * once. Replaces `server.maxConnections`, which only ever closes the new connection.
 * @example const counts = limitConnections(server, { maxConnections: 512, maxPerAddress: 64 });
 */
export function limitConnections(server: Server, limits: ConnectionLimits): () => ConnectionCounts {
  const bySocket = new Map<Socket, Connection>();
  // Per address, in the order they were opened.
  const byAddress = new Map<string, Connection[]>();
  let refused = 0;
  let evicted = 0;

  const oldestIdle = (address: string) => byAddress.get(address)?.find((c) => c.busy === 0);
  const evict = (connection: Connection) => {
    evicted++;
    forget(connection);
    connection.socket.destroy();
  };
  const forget = (connection: Connection) => {
    if (!bySocket.delete(connection.socket)) return;
    const list = byAddress.get(connection.address)!;
    list.splice(list.indexOf(connection), 1);
    if (list.length === 0) byAddress.delete(connection.address);
  };
  // The address holding the most connections that has an idle one.
  const hogWithIdle = () => {
    let best: string | undefined;
    for (const [address, list] of byAddress) {
      if (list.some((c) => c.busy === 0) && (best === undefined || list.length > byAddress.get(best)!.length)) best = address;
    }
    return best;
  };

  // Runs before http's own connection listener, so a refused socket is closed before it is parsed.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const own = byAddress.get(address) ?? [];
    if (limits.maxPerAddress > 0 && own.length >= limits.maxPerAddress) {
      const idle = oldestIdle(address);
      if (!idle) {
        refused++;
        return void socket.destroy();
      }
      evict(idle);
    }
    if (bySocket.size >= limits.maxConnections) {
      const hog = hogWithIdle();
      if (hog === undefined) {
        refused++;
        return void socket.destroy();
      }
      evict(oldestIdle(hog)!);
    }
    const connection: Connection = { socket, address, busy: 0 };
    bySocket.set(socket, connection);
    byAddress.set(address, [...(byAddress.get(address) ?? []), connection]);
    socket.once('close', () => forget(connection));
  });

  server.on('request', (req, res) => {
    const connection = bySocket.get(req.socket);
    if (!connection) return;
    connection.busy++;
    res.on('close', () => connection.busy--);
  });

  return () => ({ open: bySocket.size, refused, evicted });
}
