import { KNOWN_INTERMEDIARIES } from './intermediary.js';

/** A proxy as people see it in messages and reports: its origin, never the credentials its URL may carry. */
export function proxyShown(proxy: string | URL): string {
  return new URL(String(proxy)).origin;
}

/**
 * The `Proxy-Authorization` the credentials of a proxy URL (`http://user:pass@proxy:3128`, percent-encoded as
 * curl reads them) make, or undefined when it has none.
 * @example proxyAuthorization(new URL('http://ci:s3cret@proxy:3128')) // 'Basic Y2k6czNjcmV0'
 */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

/** Headers by which a proxy says an answer is its own, shown as evidence. */
const PROXY_MARKS = ['x-squid-error', 'proxy-authenticate'] as const;

/** The answer's status and the headers that say who made it: `407 (Proxy-Authenticate: Basic realm="x", Server: squid/5.7)`. */
export function describeProxyAnswer(status: number, headers: Headers): string {
  const shown = [...PROXY_MARKS, 'server'].flatMap((name) => {
    const value = headers.get(name);
    return value === null ? [] : [`${name.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase())}: ${value.slice(0, 120)}`];
  });
  const hint = status === 407 ? '; the proxy wants credentials: give them in its URL, http://user:password@host:port' : '';
  return `${status}${shown.length ? ` (${shown.join(', ')})` : ''}${hint}`;
}

/**
 * What a forward proxy said when an answer that came through it is its own refusal (a 4xx or 5xx the proxy
 * made: a 407, a `Proxy-Authenticate` challenge, Squid's `X-Squid-Error`, or `Server` naming a known proxy
 * that `Via` names too), else undefined. An answer with the service's own X-Request-Id (echoed when one was
 * sent) is the service's, whatever else it carries: a proxy forwards the service's answers with its `Via`.
 * @example proxyRefusal({ status: 403, headers: new Headers({ 'x-squid-error': 'ERR_ACCESS_DENIED 0' }) }) // '403 (X-Squid-Error: ERR_ACCESS_DENIED 0)'
 */
export function proxyRefusal(answer: { status: number; headers: Headers }, sentRequestId?: string): string | undefined {
  const { status, headers } = answer;
  if (status < 400) return undefined;
  const requestId = headers.get('x-request-id');
  if (requestId !== null && (sentRequestId === undefined || requestId === sentRequestId)) return undefined;
  const server = headers.get('server') ?? '';
  const via = headers.get('via') ?? '';
  const named = KNOWN_INTERMEDIARIES.some(({ word }) => word.test(server) && word.test(via));
  const marked = status === 407 || PROXY_MARKS.some((name) => headers.has(name)) || named;
  return marked ? describeProxyAnswer(status, headers) : undefined;
}

/**
 * A forward proxy answered itself instead of reaching the target: refused to tunnel (`CONNECT` answered with
 * anything but 2xx), or wanted credentials (a 407, which fetch turns into a bare network error). The message
 * names the proxy by its origin and says what it answered.
 */
export class ProxyRefused extends Error {
  override readonly name = 'ProxyRefused';
  readonly code = 'EPROXYREFUSED';
  /** What the proxy did, without naming it: `refused CONNECT 127.0.0.1:8443: 403 (X-Squid-Error: ERR_ACCESS_DENIED 0)`. */
  readonly refusal: string;
  constructor(proxy: string, refusal: string) {
    super(`the proxy ${proxy} ${refusal}`);
    this.refusal = refusal;
  }
}
