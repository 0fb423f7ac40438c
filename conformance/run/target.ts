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

/** Asks the target for one list page: unreachable targets and refused keys are usage errors, not failed checks. */
export async function preflight(baseUrl: string, apiKey: string, listPath: string, timeoutMs: number): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${listPath}?limit=1`, {
      headers: { 'x-api-key': apiKey },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    await response.arrayBuffer();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new UsageError(
      `cannot reach ${baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message} (is --base-url right and the service up?)`,
    );
  }
  if (response.status === 401) throw new UsageError(`${baseUrl} refused --api-key (401 on GET ${listPath}); check the key`);
}
