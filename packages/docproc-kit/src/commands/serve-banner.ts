import { DEV_API_KEY } from '@docproc-kit/reference/api/keys.js';
import { banner } from '../lifecycle/banner.js';
import type { ServeOptions } from './serve-options.js';
import type { RunningServe } from './serve-start.js';

/** What `docproc serve` prints once it listens: where the API, its docs, the controls and the operator's endpoints are. */
export function serveBanner(options: ServeOptions, apiKeys: string[], { service, http, metricsHttp }: RunningServe): string {
  const keyLine = apiKeys.length
    ? `${apiKeys.length} configured key${apiKeys.length === 1 ? '' : 's'} (not shown)`
    : `${DEV_API_KEY} (dev key; set --api-key to change)`;
  return banner(`docproc reference server listening on ${http.url}`, [
    ['API base URL', `${http.url}/api/v1`],
    ['API key', keyLine],
    options.databaseUrl ? ['store', service.storeLocation] : ['data dir', service.storeLocation],
    ['API reference', `${http.url}/docs  (contract: ${http.url}/openapi.json)`],
    ['mock controls', `${http.url}/_mock/settings, /_mock/reset, /_mock/requests, /_mock/documents/{id}/next-outcome`],
    ['operations', `${http.url}/healthz, /readyz, ${metricsHttp ? `${metricsHttp.url}/metrics` : '/metrics'} (no key)`],
    // With a shared database the count takes in runs other replicas are working on right now.
    service.recovered > 0 &&
      (options.databaseUrl
        ? ['processing', `${service.recovered} document(s) in the shared queue`]
        : ['resumed', `${service.recovered} document(s) left processing by the last run`]),
  ]);
}
