import { BUNDLED, BUNDLED_OPERATIONS } from '@docproc-kit/contract/bundled.js';
import { applyFaults, type FaultRegistry } from '../controls/faults.js';
import { type ApiRequest, type ApiResponse, problemResponse, unexpectedErrorResponse } from '../http/exchange.js';
import { ApiError } from '../http/problem.js';
import { redactParsedQuery } from '../http/redaction.js';
import { FILES_FIELD } from '../http/upload/upload-refusal.js';
import type { JournalPart, RequestJournal } from '../journal/request-journal.js';
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
  /** Where each tenant's answered requests are kept (see journal/request-journal.ts); none when absent. */
  journal?: RequestJournal;
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
// Reading the journal is not journaled: a page polling it would otherwise push out what it looks for.
const JOURNAL_PATH = '/_mock/requests';
const UPLOAD = 'uploadDocuments';
const NO_PARTS: JournalPart[] = [];

/** The `operation` of an answer that is no operation of the contract: a mock control, or a path none has. */
export const CONTROLS_OPERATION = 'controls';
export const UNKNOWN_OPERATION = 'unknown';

// The code and detail of a problem answer (an error path: parsing it costs nothing on the hot path).
function problemOfResponse(response: ApiResponse): { code: string | null; detail: string | null } {
  if (response.contentType !== BUNDLED.mediaTypes.problem || typeof response.body !== 'string') return { code: null, detail: null };
  try {
    const { code, detail } = JSON.parse(response.body) as { code?: unknown; detail?: unknown };
    return { code: typeof code === 'string' ? code : null, detail: typeof detail === 'string' ? detail : null };
  } catch {
    return { code: null, detail: null };
  }
}
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
export function createReferenceApi({ keyring, faults, operations, controls, random, journal }: ReferenceApiDeps): ReferenceApi {
  const dispatch = async (request: ApiRequest, tenant: string, operationId: string | undefined): Promise<ApiResponse> => {
    const { path, method } = request;
    if (under(path, CONTROLS_PREFIX)) {
      const answer = await controls(path.slice(CONTROLS_PREFIX.length), request, tenant);
      if (answer) return answer;
      throw new ApiError('not_found', `Nothing exists at ${method} ${path}.`);
    }
    const injected = applyFaults(faults.peek(tenant), operationId, random);
    if (injected) await injected;
    if (!operationId) {
      const allowed = BUNDLED_OPERATIONS.methodsFor(path);
      if (allowed.length > 0) throw methodNotAllowed(method, allowed);
      throw new ApiError('not_found', `Nothing exists at ${method} ${path}.`);
    }
    return operations[operationId]!(request, tenant);
  };

  // One answered request of a tenant, into its journal.
  const record = (
    tenant: string,
    request: ApiRequest,
    response: ApiResponse,
    operationId: string | undefined,
    startedMs: number,
    started: number,
    parts: JournalPart[],
  ) => {
    const { code, detail } = response.status >= 400 ? problemOfResponse(response) : { code: null, detail: null };
    journal!.record(tenant, {
      request_id: request.requestId,
      started_ms: startedMs,
      method: request.method,
      path: request.path,
      query: redactParsedQuery(request.query),
      operation: operationId ?? null,
      status: response.status,
      code,
      detail,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      parts,
    });
  };

  return {
    owns: (path) => under(path, API_PREFIX) || under(path, CONTROLS_PREFIX),
    async handle(request) {
      const started = performance.now();
      const startedMs = Date.now();
      const { path, method } = request;
      const controlsPath = under(path, CONTROLS_PREFIX);
      const operationId = controlsPath ? undefined : BUNDLED_OPERATIONS.find(method === 'HEAD' ? 'GET' : method, path)?.operationId;
      let parts = NO_PARTS;
      if (journal && operationId === UPLOAD) {
        // The journal shows an upload's files by name and size: what the receiver accepted.
        const receive = request.receive;
        request.receive = async (options) => {
          const received = await receive(options);
          if (received.kind === 'received') parts = received.files.map((f) => ({ name: FILES_FIELD, filename: f.filename, size: f.size }));
          return received;
        };
      }
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
        response = await dispatch(request, tenant, operationId);
      } catch (error) {
        if (error instanceof StoreUnavailable) response = problemResponse(unavailable(error), request);
        else if (error instanceof ApiError) response = problemResponse(error, request);
        else {
          // The carrier answers it 500 internal_error; the journal shows that answer.
          if (journal && tenant !== undefined)
            record(tenant, request, unexpectedErrorResponse(request), operationId, startedMs, started, parts);
          throw error;
        }
      }
      response.headers['Cache-Control'] = NO_STORE;
      response.operation = operationId ?? (controlsPath ? CONTROLS_OPERATION : UNKNOWN_OPERATION);
      if (tenant !== undefined) {
        response.tenant = tenant;
        if (journal && !(path === JOURNAL_PATH && method !== 'POST'))
          record(tenant, request, response, operationId, startedMs, started, parts);
      }
      return response;
    },
  };
}
