import { Agent, type Dispatcher, Pool, ProxyAgent } from 'undici';
import { addGatewayHeaders, proxyFor, type TransportSettings, tlsOptions } from '../definitions/transport-settings.js';

type DispatchHeaders = Dispatcher.DispatchOptions['headers'];

/** {@link addGatewayHeaders} for whatever a dispatcher is handed: fetch hands an object, undici's own callers may hand a flat [name, value, ...] array. */
export function withGatewayHeaders(headers: DispatchHeaders, gateway: TransportSettings['headers']): DispatchHeaders {
  if (gateway.length === 0) return headers;
  if (Array.isArray(headers)) {
    const flat = headers as unknown[];
    const names = new Set(flat.filter((_, i) => i % 2 === 0).map((n) => String(n).toLowerCase()));
    return [...flat, ...gateway.filter(([n]) => !names.has(n.toLowerCase())).flat()] as DispatchHeaders;
  }
  return addGatewayHeaders((headers ?? {}) as Record<string, string | string[] | undefined>, gateway) as DispatchHeaders;
}

/**
 * The dispatcher every fetch of the suite goes through: TLS with the run's certificates (or none checked,
 * with --insecure), each origin through its proxy or straight, and the gateway's headers on every request.
 * undici 6, as Node 20's and 22's own fetch, so it can be handed to the global fetch.
 * @example await fetch(url, { dispatcher: createDispatcher({ ...DIRECT, ca: pem }) } as RequestInit);
 */
export function createDispatcher(settings: TransportSettings): Dispatcher {
  const tls = tlsOptions(settings);
  const agent = new Agent({
    connect: tls,
    // One dispatcher per origin, made on its first request: a proxy's, or a pool of direct connections.
    factory: (origin, options) => {
      const proxy = proxyFor(new URL(String(origin)), settings);
      return proxy ? new ProxyAgent({ uri: proxy, requestTls: tls, proxyTls: tls }) : new Pool(origin, options);
    },
  });
  return agent.compose(
    (dispatch) => (options, handler) => dispatch({ ...options, headers: withGatewayHeaders(options.headers, settings.headers) }, handler),
  );
}
