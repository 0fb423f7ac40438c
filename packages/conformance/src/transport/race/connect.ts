import { connect as netConnect, type Socket } from 'node:net';
import { proxyFor, type TransportSettings } from '../../definitions/transport-settings.js';
import { connectToProxy, ready, secure, tunnel, unbracket } from '../tunnel.js';

const failure = (message: string, code = message) => Object.assign(new Error(message), { code });

/**
 * A socket to `url`'s host as the run reaches it, so a request written to it by hand goes where the suite's
 * fetches go. Through a proxy (HTTPS_PROXY/HTTP_PROXY, unless NO_PROXY names the host): for https, a CONNECT
 * tunnel with TLS inside; for plain http, a connection to the proxy itself, to which the request is written in
 * absolute form (`requestBytes` does, given the same settings), as curl does. Straight otherwise, with TLS for
 * https and the run's certificates (or --insecure). A target (or proxy) that never completes the handshake
 * rejects within `timeoutMs`, not after the system's minutes.
 * @example const socket = await openSocket(new URL(prepared.url), settings, 30_000); socket.write(requestBytes(prepared, settings));
 */
export async function openSocket(url: URL, settings: TransportSettings, timeoutMs: number): Promise<Socket> {
  const https = url.protocol === 'https:';
  const host = unbracket(url.hostname);
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
    if (!https) return connectToProxy(new URL(proxy), settings, track);
    const tunnelled = await tunnel(new URL(proxy), host, port, settings, track);
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
