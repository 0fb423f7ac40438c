import { BUNDLED_OPERATIONS } from '../../contract/bundled.js';
import { type ApiRequest, type ApiResponse, problemResponse } from '../../http/exchange.js';
import { ApiError } from '../../http/problem.js';
import { applyFaults, type FaultRegistry } from '../controls/faults.js';
import { StoreUnavailable } from '../store/store-unavailable.js';
import type { Keyring } from './keys.js';

/** A handler of requests under one prefix, for the caller's tenant; undefined when nothing is at the path. */
export type PrefixHandler = (path: string, request: ApiRequest, tenant: string) => Promise<ApiResponse | undefined>;

/** What the API is built from. */
export interface ReferenceApiDeps {
  keyring: Keyring;
  faults: FaultRegistry;
  /** The contract's operations, by operationId (see documents-api.ts). */
  operations: Record<string, (request: ApiRequest, tenant: string) => Promise<ApiResponse>>;
  /** The mock controls under `/_mock` (see controls/controls-api.ts). */
  controls: PrefixHandler;
  /** Uniform in [0, 1), for injected faults; seeded in tests. */
  random?: () => number;
}

/** The reference service's API: the contract's operations under `/api/v1` and the mock controls under `/_mock`. */
export interface ReferenceApi {
  /** Whether a path is the API's (anything else is for the server around it: docs, 404). */
  owns(path: string): boolean;
  /** Answers a request; every expected outcome, errors included, is a response. */
  handle(request: ApiRequest): Promise<ApiResponse>;
}

const API_PREFIX = '/api/v1';
const CONTROLS_PREFIX = '/_mock';
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
// Polling clients must never be handed a cached list or document.
const NO_STORE = 'no-store';

function methodNotAllowed(method: string, allowed: string[]): ApiError {
  const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
  return new ApiError('method_not_allowed', `${method} is not supported here; use ${allow[0]}.`, { headers: { Allow: allow.join(', ') } });
}

// The store could not be reached (its database is down): nothing changed, and the client may try again.
const unavailable = (error: StoreUnavailable) =>
  new ApiError(
    'service_unavailable',
    'The service cannot reach its database right now; nothing was changed. Retry after the Retry-After seconds.',
    {
      headers: { 'Retry-After': String(error.retryAfterS) },
    },
  );

/**
 * The API of the reference service, with no framework and no Node module in it: the key is checked first
 * (401 before anything else), then the caller's injected faults, then the operation the contract's paths
 * name (404 for an unknown path, 405 with `Allow` for a known path's other methods). A store that cannot
 * be reached is a 503 with `Retry-After`, here and nowhere else. Express
 * (node-api.ts) and `fetch` (fetch-api.ts) carry requests to it.
 * @example const api = createReferenceApi({ keyring, faults, operations, controls }); await api.handle(request);
 */
export function createReferenceApi({ keyring, faults, operations, controls, random }: ReferenceApiDeps): ReferenceApi {
  const dispatch = async (request: ApiRequest, tenant: string): Promise<ApiResponse> => {
    const { path, method } = request;
    if (under(path, CONTROLS_PREFIX)) {
      const answer = await controls(path.slice(CONTROLS_PREFIX.length), request, tenant);
      if (answer) return answer;
      throw new ApiError('not_found', `Nothing exists at ${method} ${path}.`);
    }
    const operation = BUNDLED_OPERATIONS.find(method === 'HEAD' ? 'GET' : method, path);
    const injected = applyFaults(faults.peek(tenant), operation?.operationId, random);
    if (injected) await injected;
    if (!operation) {
      const allowed = BUNDLED_OPERATIONS.methodsFor(path);
      if (allowed.length > 0) throw methodNotAllowed(method, allowed);
      throw new ApiError('not_found', `Nothing exists at ${method} ${path}.`);
    }
    return operations[operation.operationId]!(request, tenant);
  };

  return {
    owns: (path) => under(path, API_PREFIX) || under(path, CONTROLS_PREFIX),
    async handle(request) {
      let response: ApiResponse;
      let tenant: string | undefined;
      try {
        const presented = request.header('x-api-key');
        tenant = keyring.tenantOf(presented);
        if (!tenant) {
          throw new ApiError(
            'unauthorized',
            presented ? 'The API key in the x-api-key header is not valid.' : 'Send your API key in the x-api-key header.',
          );
        }
        response = await dispatch(request, tenant);
      } catch (error) {
        if (error instanceof StoreUnavailable) response = problemResponse(unavailable(error), request);
        else if (error instanceof ApiError) response = problemResponse(error, request);
        else throw error;
      }
      response.headers['Cache-Control'] = NO_STORE;
      if (tenant !== undefined) response.tenant = tenant;
      return response;
    },
  };
}
