import { isIP } from 'node:net';

/**
 * How the suite reaches a deployed target: which certificates it trusts, through which proxy, with which
 * headers a gateway in front wants. Plain data, so the CLI builds it once and hands it to every worker.
 */
export interface TransportSettings {
  /** PEM certificates trusted for https (Node's own roots included); absent: Node's default store. */
  ca?: string;
  /** The files those certificates came from (`--ca-file`, NODE_EXTRA_CA_CERTS), for reproducers. */
  caFiles?: string[];
  /** Accept any certificate (a self-signed staging certificate): never the default. */
  insecure: boolean;
  /** HTTP_PROXY, HTTPS_PROXY and NO_PROXY as the CLI found them. */
  proxy: { http?: string; https?: string; noProxy?: string };
  /** Headers a gateway in front needs on every request; never recorded, printed or reported. */
  headers: Array<[string, string]>;
}

/** A transport straight to the target, trusting Node's default certificates. */
export const DIRECT: TransportSettings = { insecure: false, proxy: {}, headers: [] };

/** Whether `settings` reach the target as fetch does on its own: no certificates of the run's, checked, no proxy, no headers. */
export function isDirect(settings: TransportSettings): boolean {
  return settings.ca === undefined && !settings.insecure && !settings.proxy.http && !settings.proxy.https && settings.headers.length === 0;
}

const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** One NO_PROXY entry as host (lower case, no brackets) and optional port: `example.com:8443`, `[::1]:80`, `::1`. */
function noProxyEntry(entry: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1]!.toLowerCase(), ...(bracketed[2] ? { port: bracketed[2] } : {}) };
  if (isIP(entry)) return { host: entry.toLowerCase() };
  const withPort = /^(.*):(\d+)$/.exec(entry);
  return withPort ? { host: withPort[1]!.toLowerCase(), port: withPort[2]! } : { host: entry.toLowerCase() };
}

/** Whether NO_PROXY names `url`'s host: `*`, a host or domain (`example.com`, `.example.com`, `*.example.com`), optionally with a port. */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = unbracket(url.hostname);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((raw) => {
      if (raw === '*') return true;
      const entry = noProxyEntry(raw);
      if (entry.port && entry.port !== port) return false;
      const name = entry.host.replace(/^\*/, '').replace(/^\./, '');
      return host === name || (!isIP(host) && host.endsWith(`.${name}`));
    });
}

/**
 * The proxy a request to `url` goes through, or undefined for a direct connection: HTTPS_PROXY for https
 * (HTTP_PROXY when it is not set), HTTP_PROXY for http, none for a host NO_PROXY names.
 * @example proxyFor(new URL('https://staging.example.com'), { ...DIRECT, proxy: { https: 'http://127.0.0.1:3128' } }) // 'http://127.0.0.1:3128'
 */
export function proxyFor(url: URL, settings: TransportSettings): string | undefined {
  const proxy = url.protocol === 'https:' ? (settings.proxy.https ?? settings.proxy.http) : settings.proxy.http;
  if (!proxy || bypassesProxy(url, settings.proxy.noProxy)) return undefined;
  return proxy;
}

/** TLS options for a connection to the target (or an https proxy): the trusted certificates and whether to check them. */
export function tlsOptions(settings: TransportSettings): { ca?: string; rejectUnauthorized: boolean } {
  return { ...(settings.ca !== undefined ? { ca: settings.ca } : {}), rejectUnauthorized: !settings.insecure };
}

/** `headers` with each gateway header added unless the request sets that header itself (a check that sends its own value means to). */
export function addGatewayHeaders<T>(headers: Record<string, T>, gateway: TransportSettings['headers']): Record<string, T | string> {
  const own = new Set(Object.keys(headers).map((n) => n.toLowerCase()));
  return { ...Object.fromEntries(gateway.filter(([n]) => !own.has(n.toLowerCase()))), ...headers };
}

/** The shell variable a reproducer reads a gateway header's value from: `X-Gateway-Token` -> `$DOCPROC_HEADER_X_GATEWAY_TOKEN`. */
export function headerVariable(name: string): string {
  return `DOCPROC_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The proxy variables as the run reads them (lower case first), as one shell word: curl itself ignores an
 * upper-case HTTP_PROXY, so a reproducer names the proxy with `-x`, its URL (and credentials) expanded by the
 * shell from the same variable the run read, never written into the command.
 */
const PROXY_WORD = {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a parameter expansion of the shell, not of JavaScript
  http: '"${http_proxy:-$HTTP_PROXY}"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a parameter expansion of the shell, not of JavaScript
  https: '"${https_proxy:-$HTTPS_PROXY}"',
} as const;

/**
 * The curl options that reach the target (`target`, the run's base URL) as the run did: through the run's
 * proxy (`-x`, from the environment variable it came from) unless NO_PROXY names the target, its
 * certificates (`--cacert`), `-k` when --insecure, and each gateway header with its value taken from a shell
 * variable, never the value itself.
 * @example curlTransportArgs({ ...DIRECT, headers: [['X-Gateway-Token', 's3cret']] }) // ['-H', '"X-Gateway-Token: $DOCPROC_HEADER_X_GATEWAY_TOKEN"']
 */
export function curlTransportArgs(settings: TransportSettings, target?: string): string[] {
  const args: string[] = [];
  const url = target === undefined ? undefined : new URL(target);
  if (url && proxyFor(url, settings))
    args.push('-x', url.protocol === 'https:' && settings.proxy.https ? PROXY_WORD.https : PROXY_WORD.http);
  const caFile = settings.caFiles?.at(-1);
  if (caFile) args.push('--cacert', `'${caFile.replace(/'/g, `'\\''`)}'`);
  if (settings.insecure) args.push('-k');
  for (const [name] of settings.headers) args.push('-H', `"${name}: $${headerVariable(name)}"`);
  return args;
}
