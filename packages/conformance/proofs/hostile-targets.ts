// Test-only: targets that answer what no service should, to prove the suite stays bounded whatever it gets:
// a 1 GiB body, an endless chunked body, a gzip bomb, a server that drips one byte a second, and JSON that
// is not UTF-8. Each answers every request the same way, on a free port of 127.0.0.1.
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

/** The hostile answers, by name. */
export type HostileKind = 'huge-body' | 'endless-chunked' | 'gzip-bomb' | 'drip' | 'invalid-utf8' | 'hang-after-probe';

export const GIB = 1024 ** 3;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/** Writes `CHUNK`s as fast as the client reads them, `total` bytes (endless without), until the client goes. */
function pump(res: ServerResponse, total = Number.POSITIVE_INFINITY): void {
  let sent = 0;
  const more = () => {
    while (sent < total && !res.destroyed) {
      const piece = total - sent < CHUNK.length ? CHUNK.subarray(0, total - sent) : CHUNK;
      sent += piece.length;
      if (!res.write(piece)) return void res.once('drain', more);
    }
    if (sent >= total) res.end();
  };
  res.on('close', () => res.destroy());
  more();
}

// 16 MiB of spaces inflates from about 16 KiB: 64 members are 1 GiB for about 1 MiB on the wire (a
// gzip stream may hold several members, and every decoder reads them all).
let bombMember: Buffer | undefined;

function drip(socket: Socket): void {
  const text = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
  let at = 0;
  const timer = setInterval(() => {
    if (at >= text.length || socket.destroyed) return clearInterval(timer);
    socket.write(text.subarray(at, ++at));
  }, 1000);
  socket.on('error', () => clearInterval(timer));
  socket.on('close', () => clearInterval(timer));
}

/** The first request's answer: an empty list page, as the contract's `pastTheEnd` example, and the connection closed. */
function listPage(socket: Socket): void {
  const body = JSON.stringify({ documents: [], pagination: { page: 1, limit: 1, total: 0, total_pages: 0 } });
  socket.end(
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-request-id: r\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Starts a target that answers every request with `kind`; `hang-after-probe` answers its first request
 * (the CLI's probe) with a valid list page, then drips every later answer (a backend whose database hung
 * behind a healthy gateway).
 * @example const target = await startHostileTarget('gzip-bomb'); ... await target.close();
 */
export async function startHostileTarget(kind: HostileKind): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server;
  if (kind === 'drip' || kind === 'hang-after-probe') {
    let connections = 0;
    server = createNetServer((socket) => {
      const first = kind === 'hang-after-probe' && connections++ === 0;
      socket.on('data', () => {});
      if (first) socket.once('data', () => listPage(socket));
      else drip(socket);
    });
  } else {
    server = createHttpServer((req, res) => {
      req.resume();
      const json = { 'content-type': 'application/json', 'x-request-id': String(req.headers['x-request-id'] ?? 'r') };
      if (kind === 'huge-body') {
        res.writeHead(200, { ...json, 'content-length': String(GIB) });
        pump(res, GIB);
      } else if (kind === 'endless-chunked') {
        res.writeHead(200, json);
        pump(res);
      } else if (kind === 'gzip-bomb') {
        bombMember ??= gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20), { level: 9 });
        const members = GIB / (16 * 1024 * 1024);
        res.writeHead(200, { ...json, 'content-encoding': 'gzip', 'content-length': String(members * bombMember.length) });
        let n = 0;
        const more = () => {
          while (n < members && !res.destroyed) {
            n++;
            if (!res.write(bombMember)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
      } else {
        res.writeHead(200, json);
        res.end(
          Buffer.concat([
            Buffer.from('{"documents": [], "pagination": {"page": 1, "note": "'),
            Buffer.from([0xff, 0xfe]),
            Buffer.from('"}}'),
          ]),
        );
      }
    });
  }
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
