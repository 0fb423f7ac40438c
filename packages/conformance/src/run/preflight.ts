import type { Dispatcher } from 'undici';
import { UsageError } from '../definitions/config.js';
import { proxyFor, type TransportSettings } from '../definitions/transport-settings.js';
import { sleep } from '../transport/polling.js';
import { proxyRefusal, proxyShown } from '../transport/proxy.js';
import { backoffMs, type Liveness, retryAfterMs, TRANSIENT_STATUSES } from '../transport/transient.js';
import { fetchBounded, type HttpAnswer } from '../transport/transport.js';

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

/** What the preflight may spend: the run's request timeout, wait budget, body cap and deadline. */
export interface PreflightLimits {
  timeoutMs: number;
  maxWaitMs: number;
  maxBodyBytes: number;
  deadlineAt: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Asks the target for one list page. A target that cannot be connected to, a forward proxy that answers
 * itself (refuses the request or the tunnel, wants credentials), an untrusted certificate and a refused key
 * are usage errors; one that answers only transient statuses (429, 503, a gateway's 502/504) for the whole
 * wait budget is "target unavailable" (exit 2). Anything else it does (no answer in time, a reset, an odd
 * or endless body) is for the suite to judge: the run goes on, and the report says what happened; whether
 * the target answered at all is handed to the run (`liveness`), which stops early when its first requests
 * get no answer either. An http:// base that redirects to https:// is followed once: resolves to the base
 * the run uses, with a warning when it is not the one given.
 * @example const { baseUrl, warning, liveness } = await preflight('http://staging.example.com', key, '/api/v1/documents/get_documents', limits, reach);
 */
export async function preflight(
  baseUrl: string,
  apiKey: string,
  listPath: string,
  limits: PreflightLimits,
  reach?: Reach,
): Promise<{ baseUrl: string; warning?: string; liveness: Liveness }> {
  const { answer, liveness } = await probe(baseUrl, apiKey, listPath, limits, reach);
  const location = answer?.headers.get('location');
  if (answer && baseUrl.startsWith('http:') && REDIRECTS.has(answer.status) && location) {
    const to = new URL(location, `${baseUrl}${listPath}?limit=1`);
    const at = to.pathname.lastIndexOf(listPath);
    if (to.protocol === 'https:' && at >= 0 && at + listPath.length === to.pathname.length) {
      const httpsBase = `${to.origin}${to.pathname.slice(0, at)}`;
      const followed = await probe(httpsBase, apiKey, listPath, limits, reach);
      return {
        baseUrl: httpsBase,
        liveness: followed.liveness,
        warning: `warning: ${baseUrl} redirects to https (${answer.status} to ${httpsBase}): the run uses ${httpsBase}; give --base-url ${httpsBase} to skip the redirect`,
      };
    }
  }
  return { baseUrl, liveness };
}

/** One list page, its transient answers waited out (`answer` undefined when there was none for the suite to judge), and whether it was answered at all. */
async function probe(
  baseUrl: string,
  apiKey: string,
  listPath: string,
  limits: PreflightLimits,
  reach?: Reach,
): Promise<{ answer?: HttpAnswer; liveness: Liveness }> {
  const url = `${baseUrl}${listPath}?limit=1`;
  const proxy = reach ? proxyFor(new URL(url), reach.settings) : undefined;
  const through = proxy ? ` through the proxy ${proxyShown(proxy)}` : '';
  let waitedMs = 0;
  for (let resends = 1; ; resends++) {
    const timeoutMs = Math.min(limits.timeoutMs, Math.max(1, limits.deadlineAt - Date.now()));
    const answer = await fetchBounded(
      { url, method: 'GET', headers: { 'x-api-key': apiKey }, ...(reach ? { dispatcher: reach.dispatcher } : {}) },
      { timeoutMs, maxBodyBytes: limits.maxBodyBytes },
    );
    if ('error' in answer) {
      const origin = new URL(url).origin;
      if (CERTIFICATE_CODES.has(answer.error))
        throw new UsageError(
          `cannot verify the TLS certificate of ${origin}: ${answer.error}; trust its CA with --ca-file PATH (or NODE_EXTRA_CA_CERTS), or use --insecure for a staging certificate`,
        );
      if (answer.proxyRefused) throw new UsageError(`cannot reach ${baseUrl}${through}: it ${answer.proxyRefused}`);
      if (answer.unreachable)
        throw new UsageError(`cannot reach ${baseUrl}${through}: ${answer.error} (is --base-url right and the service up?)`);
      return { liveness: { answered: 0, unanswered: answer.timedOut ? 1 : 0 } };
    }
    const refused = proxy ? proxyRefusal(answer) : undefined;
    if (refused) throw new UsageError(`cannot reach ${baseUrl}${through}: it answered GET ${url} itself, ${refused}`);
    if (answer.status === 401) throw new UsageError(`${baseUrl} refused --api-key (401 on GET ${listPath}); check the key`);
    if (!TRANSIENT_STATUSES.has(answer.status))
      return {
        answer,
        liveness: { answered: 1, unanswered: 0, lastAnswered: { request: `GET ${new URL(url).pathname}`, at: Date.now() } },
      };
    const waitMs = retryAfterMs(answer.headers) ?? backoffMs(resends);
    if (waitedMs + waitMs > limits.maxWaitMs || Date.now() + waitMs > limits.deadlineAt)
      throw new UsageError(
        `target unavailable: ${baseUrl} answered only ${answer.status} (and other transient statuses) to GET ${listPath} for ${Math.round(waitedMs / 1000)} s; --max-wait-s is ${Math.round(limits.maxWaitMs / 1000)}`,
      );
    await sleep(waitMs);
    waitedMs += waitMs;
  }
}
