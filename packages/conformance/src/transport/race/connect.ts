import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { proxyFor, type TransportSettings, tlsOptions } from '../../definitions/transport-settings.js';

const CRLF2 = Buffer.from('\r\n\r\n');

const failure = (message: string, code = message) => Object.assign(new Error(message), { code });

// TLS for `host` over `socket` (or a new connection): SNI only for a name, never an IP address (RFC 6066).
function secure(host: string, port: number, settings: TransportSettings, socket?: Socket): Socket {
  return tlsConnect({ host, port, ...(socket ? { socket } : {}), ...(isIP(host) ? {} : { servername: host }), ...tlsOptions(settings) });
}

/** Resolves once `socket` is connected (`event`), rejects on its error. */
function ready(socket: Socket, event: 'connect' | 'secureConnect'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    socket.once('error', fail);
    socket.once(event, () => {
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

// Asks the proxy for a tunnel to host:port (HTTP CONNECT) and resolves once it answered 2xx.
async function tunnel(
  proxyUrl: URL,
  host: string,
  port: number,
  settings: TransportSettings,
  track: (socket: Socket) => Socket,
): Promise<Socket> {
  const proxyPort = Number(proxyUrl.port || (proxyUrl.protocol === 'https:' ? 443 : 80));
  const proxyHost = proxyUrl.hostname.replace(/^\[(.*)\]$/, '$1');
  const socket =
    proxyUrl.protocol === 'https:'
      ? await ready(track(secure(proxyHost, proxyPort, settings)), 'secureConnect')
      : await ready(track(netConnect({ host: proxyHost, port: proxyPort })), 'connect');
  const authority = isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
  const credentials = proxyUrl.username
    ? `proxy-authorization: Basic ${Buffer.from(`${decodeURIComponent(proxyUrl.username)}:${decodeURIComponent(proxyUrl.password)}`).toString('base64')}\r\n`
    : '';
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n${credentials}\r\n`);
  const head = await new Promise<Buffer>((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf(CRLF2);
      if (end < 0) return;
      socket.off('data', onData).off('error', reject).off('close', onClose);
      // Bytes past the proxy's answer already belong to the target (none before the request, in practice).
      if (received.length > end + CRLF2.length) socket.unshift(received.subarray(end + CRLF2.length));
      resolve(received.subarray(0, end));
    };
    const onClose = () => reject(failure(`the proxy ${proxyUrl.origin} closed the connection instead of answering CONNECT ${authority}`));
    socket.on('data', onData).once('error', reject).once('close', onClose);
  });
  const statusLine = head.toString('latin1').split('\r\n')[0] ?? '';
  if (!/^HTTP\/1\.[01] 2\d\d\b/.test(statusLine)) {
    socket.destroy();
    throw failure(`the proxy ${proxyUrl.origin} refused CONNECT ${authority}: ${statusLine}`);
  }
  return socket;
}

/**
 * A socket to `url`'s host as the run reaches it: through an HTTP CONNECT tunnel when a proxy applies
 * (HTTPS_PROXY/HTTP_PROXY, unless NO_PROXY names the host), with TLS for https and the run's certificates
 * (or --insecure), so a request written to it by hand goes where the suite's fetches go. A target (or
 * proxy) that never completes the handshake rejects within `timeoutMs`, not after the system's minutes.
 * @example const socket = await openSocket(new URL(prepared.url), settings, 30_000); socket.write(requestBytes(prepared));
 */
export async function openSocket(url: URL, settings: TransportSettings, timeoutMs: number): Promise<Socket> {
  const https = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (https ? 443 : 80));
  const proxy = proxyFor(url, settings);
  const opened: Socket[] = [];
  const track = (socket: Socket) => {
    opened.push(socket);
    return socket;
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(failure('connect timeout', `no connection within ${timeoutMs} ms`)), timeoutMs);
  });
  const connect = async () => {
    if (!proxy)
      return https ? ready(track(secure(host, port, settings)), 'secureConnect') : ready(track(netConnect({ host, port })), 'connect');
    const tunnelled = await tunnel(new URL(proxy), host, port, settings, track);
    if (!https) return tunnelled;
    return ready(track(secure(host, port, settings, tunnelled)), 'secureConnect');
  };
  try {
    return await Promise.race([connect(), timeout]);
  } catch (error) {
    for (const socket of opened) socket.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
