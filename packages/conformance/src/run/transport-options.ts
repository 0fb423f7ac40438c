import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { rootCertificates } from 'node:tls';
import { type ConformanceOptions, UsageError } from '../definitions/config.js';
import type { TransportSettings } from '../definitions/transport-settings.js';

// Headers the suite itself sets or varies per request: a gateway header may not replace them.
const RESERVED = new Set(['x-api-key', 'host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'x-request-id']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses `Name: value` gateway headers (from --header, or DOCPROC_HEADERS one per line); an error names
 * the header, never its value.
 * @example parseHeaders(['X-Gateway-Token: s3cret']) // [['X-Gateway-Token', 's3cret']]
 */
export function parseHeaders(lines: readonly string[]): Array<[string, string]> {
  return lines.map((line) => {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!TOKEN.test(name)) throw new UsageError(`--header must be 'Name: value', with a header name before the colon`);
    if (RESERVED.has(name.toLowerCase())) throw new UsageError(`--header ${name}: the suite sets ${name} itself (the key is --api-key)`);
    const value = line.slice(colon + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`--header ${name}: the value has a line break or NUL`);
    return [name, value];
  });
}

function certificates(path: string, from: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${from} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`${from} ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return text;
}

function proxyUrl(value: string | undefined, name: string): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  // As curl does: a proxy without a scheme is an http proxy.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`${name} is not a URL (example: http://proxy.example.com:3128)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${name} must be an http or https proxy, not ${url.protocol}`);
  return url.href;
}

/**
 * How the run reaches the target, from the options and the environment: --ca-file and NODE_EXTRA_CA_CERTS
 * (read here, so every worker trusts exactly these whenever it started), --insecure, HTTP(S)_PROXY and
 * NO_PROXY (lower case first, as curl reads them), --header or DOCPROC_HEADERS; and the warnings to print.
 * @example const { settings, warnings } = createTransportSettings({ caFile: 'ca.pem', insecure: false }, process.env);
 */
export function createTransportSettings(
  options: Pick<ConformanceOptions, 'caFile' | 'insecure' | 'header'>,
  env: NodeJS.ProcessEnv,
): { settings: TransportSettings; warnings: string[] } {
  const warnings: string[] = [];
  const caFiles: string[] = [];
  const pems: string[] = [];
  // Node reads NODE_EXTRA_CA_CERTS once, at start-up; given certificates replace its store, so it is added here.
  // A stale one is ignored with a warning, as Node itself does, rather than refusing the run.
  if (env.NODE_EXTRA_CA_CERTS) {
    try {
      pems.push(certificates(resolve(env.NODE_EXTRA_CA_CERTS), 'NODE_EXTRA_CA_CERTS'));
      caFiles.push(resolve(env.NODE_EXTRA_CA_CERTS));
    } catch (error) {
      warnings.push(`warning: ${(error as Error).message}: ignored`);
    }
  }
  if (options.caFile) {
    caFiles.push(resolve(options.caFile));
    pems.push(certificates(resolve(options.caFile), '--ca-file'));
  }
  const insecure = options.insecure ?? false;
  if (insecure)
    warnings.push(
      "warning: --insecure: the target's TLS certificate is not verified, so nothing proves who answered this run; trust its CA with --ca-file instead",
    );
  const headerLines = options.header?.length ? options.header : (env.DOCPROC_HEADERS ?? '').split(/\r?\n/).filter((l) => l.trim());
  const proxy = {
    http: proxyUrl(env.http_proxy ?? env.HTTP_PROXY, 'HTTP_PROXY'),
    https: proxyUrl(env.https_proxy ?? env.HTTPS_PROXY, 'HTTPS_PROXY'),
    noProxy: (env.no_proxy ?? env.NO_PROXY)?.trim() || undefined,
  };
  const settings: TransportSettings = {
    ...(pems.length ? { ca: [...rootCertificates, ...pems].join('\n'), caFiles } : {}),
    insecure,
    proxy: Object.fromEntries(Object.entries(proxy).filter(([, v]) => v !== undefined)),
    headers: parseHeaders(headerLines),
  };
  return { settings, warnings };
}
