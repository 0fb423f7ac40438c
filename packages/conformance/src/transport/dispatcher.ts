import { Agent, buildConnector, type Dispatcher, Pool } from 'undici';
import { addGatewayHeaders, proxyFor, type TransportSettings, tlsOptions } from '../definitions/transport-settings.js';
import { describeProxyAnswer, ProxyRefused, proxyAuthorization, proxyShown } from './proxy.js';
import { tunnelConnector } from './tunnel.js';

type DispatchHeaders = Dispatcher.DispatchOptions['headers'];

/** `extra` added to whatever a dispatcher is handed (fetch hands an object, undici's own callers may hand a flat [name, value, ...] array), never over a header it has. */
function withHeaders(headers: DispatchHeaders, extra: Array<[string, string]>): DispatchHeaders {
  if (extra.length === 0) return headers;
  if (Array.isArray(headers)) {
    const flat = headers as unknown[];
    const names = new Set(flat.filter((_, i) => i % 2 === 0).map((n) => String(n).toLowerCase()));
    return [...flat, ...extra.filter(([n]) => !names.has(n.toLowerCase())).flat()] as DispatchHeaders;
  }
  return addGatewayHeaders((headers ?? {}) as Record<string, string | string[] | undefined>, extra) as DispatchHeaders;
}

/** {@link addGatewayHeaders} for whatever a dispatcher is handed. */
export function withGatewayHeaders(headers: DispatchHeaders, gateway: TransportSettings['headers']): DispatchHeaders {
  return withHeaders(headers, gateway);
}

/**
 * `handler`, but a 407 (the proxy wants credentials) fails the request with {@link ProxyRefused} saying what
 * the proxy answered: fetch would turn it into a network error that says nothing (Fetch standard, HTTP-network-
 * or-cache fetch, step 15).
 */
function refusingProxyAuth(handler: Dispatcher.DispatchHandlers, proxy: string, request: string): Dispatcher.DispatchHandlers {
  const own = handler.onHeaders;
  if (!own) return handler;
  // Delegates every other call (and the state fetch keeps on its handler) to `handler` itself.
  return Object.assign(Object.create(handler) as Dispatcher.DispatchHandlers, {
    onHeaders(this: Dispatcher.DispatchHandlers, status: number, raw: Buffer[], resume: () => void, statusText: string) {
      if (status !== 407) return own.call(this, status, raw, resume, statusText);
      const headers = new Headers();
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!.toString('latin1'), raw[i + 1]!.toString('latin1'));
      throw new ProxyRefused(proxy, `answered ${request} itself, ${describeProxyAnswer(status, headers)}`);
    },
  });
}

/**
 * Connections to a forward proxy that carry plain http requests for `origin` in absolute form (`GET
 * http://host:port/path HTTP/1.1`, RFC 9112 §3.2.2), `Host` the target's, and the proxy URL's credentials
 * as `Proxy-Authorization`: what curl, Python's requests and Go's net/http send, and what a proxy that
 * tunnels (CONNECT) only to port 443, as Squid's default configuration does, accepts.
 */
class AbsoluteFormPool extends Pool {
  readonly #origin: string;
  readonly #proxy: string;
  readonly #extra: Array<[string, string]>;

  constructor(origin: URL, proxy: URL, options: Pool.Options) {
    super(proxy.origin, options);
    this.#origin = origin.origin;
    this.#proxy = proxyShown(proxy);
    const authorization = proxyAuthorization(proxy);
    this.#extra = [['host', origin.host], ...(authorization ? [['proxy-authorization', authorization] as [string, string]] : [])];
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers): boolean {
    const path = `${this.#origin}${options.path}`;
    return super.dispatch(
      { ...options, path, headers: withHeaders(options.headers, this.#extra) },
      refusingProxyAuth(handler, this.#proxy, `${options.method} ${path}`),
    );
  }
}

/**
 * Set on the error a connection fails with: the bytes of answers it had read by then. More than 0 means it had
 * carried an answer before (a kept-alive connection), which undici's own socket errors say but a plain reset
 * (ECONNRESET) does not.
 */
export const READ_BEFORE = Symbol('docproc-kit.readBefore');

/** `connector`, each socket it makes noting on its errors how much it had read ({@link READ_BEFORE}). */
function noting(connector: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connector(options, (...args: Parameters<buildConnector.Callback>) => {
      const socket = args[1];
      // Registered before undici's own listener, so the error carries the count when undici hands it on.
      socket?.on('error', (error: unknown) => {
        if (error && typeof error === 'object' && Object.isExtensible(error)) Object.assign(error, { [READ_BEFORE]: socket.bytesRead });
      });
      callback(...args);
    });
}

/**
 * The dispatcher every fetch of the suite goes through: TLS with the run's certificates (or none checked,
 * with --insecure), each origin through its proxy or straight, and the gateway's headers on every request.
 * Through a proxy, https goes in a CONNECT tunnel and plain http in absolute form, as the common HTTP
 * clients do. undici 6, as Node 20's and 22's own fetch, so it can be handed to the global fetch.
 * @example await fetch(url, { dispatcher: createDispatcher({ ...DIRECT, ca: pem }) } as RequestInit);
 */
export function createDispatcher(settings: TransportSettings): Dispatcher {
  const tls = tlsOptions(settings);
  const agent = new Agent({
    connect: noting(buildConnector(tls)),
    // One dispatcher per origin, made on its first request: a proxy's, or a pool of direct connections.
    factory: (origin, options) => {
      const url = new URL(String(origin));
      const proxy = proxyFor(url, settings);
      if (!proxy) return new Pool(origin, options);
      if (url.protocol === 'https:') return new Pool(origin, { ...options, connect: noting(tunnelConnector(new URL(proxy), settings)) });
      return new AbsoluteFormPool(url, new URL(proxy), options);
    },
  });
  return agent.compose(
    (dispatch) => (options, handler) => dispatch({ ...options, headers: withGatewayHeaders(options.headers, settings.headers) }, handler),
  );
}
