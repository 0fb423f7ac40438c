import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { buildConnector } from 'undici';
import { type TransportSettings, tlsOptions } from '../definitions/transport-settings.js';
import { describeProxyAnswer, ProxyRefused, proxyAuthorization, proxyShown } from './proxy.js';

const CRLF2 = Buffer.from('\r\n\r\n');

const failure = (message: string, code = message) => Object.assign(new Error(message), { code });

/** `host` without the brackets of an IPv6 literal. */
export const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/** TLS for `host` over `socket` (or a new connection): SNI only for a name, never an IP address (RFC 6066). */
export function secure(host: string, port: number, settings: TransportSettings, socket?: Socket): Socket {
  return tlsConnect({ host, port, ...(socket ? { socket } : {}), ...(isIP(host) ? {} : { servername: host }), ...tlsOptions(settings) });
}

/** Resolves once `socket` is connected (`event`), rejects on its error. */
export function ready(socket: Socket, event: 'connect' | 'secureConnect'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    socket.once('error', fail);
    socket.once(event, () => {
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

/** A connection to the proxy itself: TLS for an https:// proxy, with the run's certificates. */
export function connectToProxy(proxyUrl: URL, settings: TransportSettings, track: (socket: Socket) => Socket = (s) => s): Promise<Socket> {
  const port = Number(proxyUrl.port || (proxyUrl.protocol === 'https:' ? 443 : 80));
  const host = unbracket(proxyUrl.hostname);
  return proxyUrl.protocol === 'https:'
    ? ready(track(secure(host, port, settings)), 'secureConnect')
    : ready(track(netConnect({ host, port })), 'connect');
}

/** Reads the head of the proxy's answer to CONNECT; bytes past it are put back for the tunnel's reader. */
function readHead(socket: Socket, closed: () => Error): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf(CRLF2);
      if (end < 0) return;
      socket.off('data', onData).off('error', reject).off('close', onClose);
      socket.pause();
      // Bytes past the proxy's answer already belong to the target (none before the request, in practice).
      if (received.length > end + CRLF2.length) socket.unshift(received.subarray(end + CRLF2.length));
      resolve(received.subarray(0, end));
    };
    const onClose = () => reject(closed());
    socket.on('data', onData).once('error', reject).once('close', onClose);
  });
}

/**
 * Asks the proxy for a tunnel to host:port (HTTP CONNECT, with the proxy URL's credentials as
 * `Proxy-Authorization`) and resolves to the tunnel once it answered 2xx; throws {@link ProxyRefused},
 * naming the proxy and what it said, for any other answer.
 */
export async function tunnel(
  proxyUrl: URL,
  host: string,
  port: number,
  settings: TransportSettings,
  track: (socket: Socket) => Socket = (s) => s,
): Promise<Socket> {
  const socket = await connectToProxy(proxyUrl, settings, track);
  const authority = isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
  const authorization = proxyAuthorization(proxyUrl);
  socket.write(
    `CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n${authorization ? `proxy-authorization: ${authorization}\r\n` : ''}\r\n`,
  );
  const head = await readHead(socket, () =>
    failure(`the proxy ${proxyShown(proxyUrl)} closed the connection instead of answering CONNECT ${authority}`),
  );
  const [statusLine = '', ...fields] = head.toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})\b/.exec(statusLine)?.[1];
  if (status?.startsWith('2')) return socket;
  socket.destroy();
  const headers = new Headers();
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon > 0) headers.append(field.slice(0, colon).trim(), field.slice(colon + 1).trim());
  }
  const said = status ? describeProxyAnswer(Number(status), headers) : JSON.stringify(statusLine.slice(0, 80));
  throw new ProxyRefused(proxyShown(proxyUrl), `refused CONNECT ${authority}: ${said}`);
}

/**
 * An undici connector for an https:// origin reached through `proxy`: a CONNECT tunnel, TLS with the run's
 * certificates inside it. A proxy (or target) that never completes the handshake fails within `timeoutMs`.
 * @example new Pool('https://staging.example.com', { connect: tunnelConnector(new URL('http://proxy:3128'), settings) });
 */
export function tunnelConnector(proxy: URL, settings: TransportSettings, timeoutMs = 10_000): buildConnector.connector {
  return ({ hostname, port }, callback) => {
    const host = unbracket(hostname);
    const opened: Socket[] = [];
    const track = (socket: Socket) => {
      opened.push(socket);
      return socket;
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(failure('connect timeout', 'UND_ERR_CONNECT_TIMEOUT')), timeoutMs);
    });
    const connect = async () => {
      const tunnelled = await tunnel(proxy, host, Number(port || 443), settings, track);
      return ready(track(secure(host, Number(port || 443), settings, tunnelled)), 'secureConnect');
    };
    Promise.race([connect(), timeout]).then(
      (socket) => {
        clearTimeout(timer);
        callback(null, socket);
      },
      (error: Error) => {
        clearTimeout(timer);
        for (const socket of opened) socket.destroy();
        callback(error, null);
      },
    );
  };
}
