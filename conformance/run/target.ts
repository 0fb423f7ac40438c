import type { Dispatcher } from 'undici';
import { proxyFor, type TransportSettings } from '../kit/transport-settings.js';
import { UsageError } from './config.js';

/** Checks the base URL: http(s), and without the `/api/v1` the contract's paths already carry. */
export function normaliseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url ${JSON.stringify(value)} is not a URL (example: https://docs.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be http or https, not ${url.protocol}`);
  if (/\/api\/v1\/?$/.test(url.pathname)) {
    throw new UsageError(
      `--base-url is the service's base_url without /api/v1 (the contract's paths carry it): try ${url.origin}${url.pathname.replace(/\/api\/v1\/?$/, '')}`,
    );
  }
  if (url.search || url.hash) throw new UsageError('--base-url must not have a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

// Node's (OpenSSL's) codes for a certificate the run does not trust, or one that does not name the host.
const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** How the CLI reaches the target for its first requests: the run's dispatcher and what it was built from. */
export interface Reach {
  dispatcher: Dispatcher;
  settings: TransportSettings;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Asks the target for one list page: unreachable targets, untrusted certificates and refused keys are usage
 * errors, not failed checks. An http:// base that redirects to https:// is followed once: resolves to the
 * base the run uses, with a warning when it is not the one given.
 * @example const { baseUrl, warning } = await preflight('http://staging.example.com', key, '/api/v1/documents/get_documents', 30_000, reach);
 */
export async function preflight(
  baseUrl: string,
  apiKey: string,
  listPath: string,
  timeoutMs: number,
  reach?: Reach,
): Promise<{ baseUrl: string; warning?: string }> {
  const response = await probe(baseUrl, apiKey, listPath, timeoutMs, reach);
  const location = response.headers.get('location');
  if (baseUrl.startsWith('http:') && REDIRECTS.has(response.status) && location) {
    const to = new URL(location, `${baseUrl}${listPath}?limit=1`);
    const at = to.pathname.lastIndexOf(listPath);
    if (to.protocol === 'https:' && at >= 0 && at + listPath.length === to.pathname.length) {
      const httpsBase = `${to.origin}${to.pathname.slice(0, at)}`;
      const again = await probe(httpsBase, apiKey, listPath, timeoutMs, reach);
      refusedKey(again, httpsBase, listPath);
      return {
        baseUrl: httpsBase,
        warning: `warning: ${baseUrl} redirects to https (${response.status} to ${httpsBase}): the run uses ${httpsBase}; give --base-url ${httpsBase} to skip the redirect`,
      };
    }
  }
  refusedKey(response, baseUrl, listPath);
  return { baseUrl };
}

function refusedKey(response: Response, baseUrl: string, listPath: string): void {
  if (response.status === 401) throw new UsageError(`${baseUrl} refused --api-key (401 on GET ${listPath}); check the key`);
}

async function probe(baseUrl: string, apiKey: string, listPath: string, timeoutMs: number, reach?: Reach): Promise<Response> {
  const url = `${baseUrl}${listPath}?limit=1`;
  try {
    const response = await fetch(url, {
      headers: { 'x-api-key': apiKey },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
      ...(reach ? { dispatcher: reach.dispatcher } : {}),
    } as RequestInit);
    await response.arrayBuffer();
    return response;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const origin = new URL(url).origin;
    if (cause?.code && CERTIFICATE_CODES.has(cause.code)) {
      throw new UsageError(
        `cannot verify the TLS certificate of ${origin}: ${cause.code} (${cause.message}); trust its CA with --ca-file PATH (or NODE_EXTRA_CA_CERTS), or use --insecure for a staging certificate`,
      );
    }
    const proxy = reach ? proxyFor(new URL(url), reach.settings) : undefined;
    const through = proxy ? ` through the proxy ${new URL(proxy).origin}` : '';
    throw new UsageError(
      `cannot reach ${baseUrl}${through}: ${cause?.code ?? cause?.message ?? (error as Error).message} (is --base-url right and the service up?)`,
    );
  }
}
