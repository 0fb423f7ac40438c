import { backoffMs, retryAfterMs, TRANSIENT_STATUSES } from '../kit/transient.js';
import { fetchBounded } from '../kit/transport.js';
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

/** What the preflight may spend: the run's request timeout, wait budget, body cap and deadline. */
export interface PreflightLimits {
  timeoutMs: number;
  maxWaitMs: number;
  maxBodyBytes: number;
  deadlineAt: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks the target for one list page. A target that cannot be connected to and a refused key are usage
 * errors; one that answers only transient statuses (429, 503, a gateway's 502/504) for the whole wait
 * budget is "target unavailable" (exit 2). Anything else it does (no answer in time, a reset, an odd or
 * endless body) is for the suite to judge: the run goes on, and the report says what happened.
 */
export async function preflight(baseUrl: string, apiKey: string, listPath: string, limits: PreflightLimits): Promise<void> {
  let waitedMs = 0;
  for (let resends = 1; ; resends++) {
    const timeoutMs = Math.min(limits.timeoutMs, Math.max(1, limits.deadlineAt - Date.now()));
    const answer = await fetchBounded(
      { url: `${baseUrl}${listPath}?limit=1`, method: 'GET', headers: { 'x-api-key': apiKey } },
      { timeoutMs, maxBodyBytes: limits.maxBodyBytes },
    );
    if ('error' in answer) {
      if (answer.unreachable) throw new UsageError(`cannot reach ${baseUrl}: ${answer.error} (is --base-url right and the service up?)`);
      return;
    }
    if (answer.status === 401) throw new UsageError(`${baseUrl} refused --api-key (401 on GET ${listPath}); check the key`);
    if (!TRANSIENT_STATUSES.has(answer.status)) return;
    const waitMs = retryAfterMs(answer.headers) ?? backoffMs(resends);
    if (waitedMs + waitMs > limits.maxWaitMs || Date.now() + waitMs > limits.deadlineAt)
      throw new UsageError(
        `target unavailable: ${baseUrl} answered only ${answer.status} (and other transient statuses) to GET ${listPath} for ${Math.round(waitedMs / 1000)} s; --max-wait-s is ${Math.round(limits.maxWaitMs / 1000)}`,
      );
    await sleep(waitMs);
    waitedMs += waitMs;
  }
}
