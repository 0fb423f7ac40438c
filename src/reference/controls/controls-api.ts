import { type ApiRequest, type ApiResponse, jsonResponse } from '../../http/exchange.js';
import { ApiError, type FieldError, invalidRequest } from '../../http/problem.js';
import { listRequests } from '../journal/journal-control.js';
import type { RequestJournal } from '../journal/request-journal.js';
import type { DocumentError, ForcedOutcome } from '../model.js';
import type { Processor } from '../processing/processor.js';
import { MAX_PROCESSING_DELAY_MS, type ProcessingSettings, type SettingsRegistry } from '../processing/settings.js';
import { documentJson } from '../serialize.js';
import type { DocumentStore } from '../store/document-store.js';
import { parseDocumentId } from '../validation.js';
import { type FaultRegistry, parseFaultsChange } from './faults.js';
import { parseSeeds, seedDocuments } from './seeding.js';

/** What the mock controls need. */
export interface ControlsDeps {
  store: DocumentStore;
  processor: Processor;
  settings: SettingsRegistry;
  faults: FaultRegistry;
  clock: () => Date;
  /** The operations faults can be injected into. */
  operationIds: readonly string[];
  /** Each tenant's answered requests (`GET /_mock/requests`); a reset clears the tenant's. */
  journal: RequestJournal;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function requireObject(body: unknown): Record<string, unknown> {
  if (!isObject(body))
    throw invalidRequest([{ in: 'body', name: 'body', message: 'must be a JSON object (Content-Type: application/json)' }]);
  return body;
}

function unknownKeys(body: Record<string, unknown>, known: string[], errors: FieldError[]): void {
  for (const key of Object.keys(body))
    if (!known.includes(key)) errors.push({ in: 'body', name: key, message: `unknown setting; known: ${known.join(', ')}` });
}

// Strict on purpose: a typo in a control must not silently change nothing.
function parseSettings(body: unknown): Partial<ProcessingSettings> {
  const input = requireObject(body);
  const errors: FieldError[] = [];
  unknownKeys(input, ['processing_delay_ms', 'failure_rate'], errors);
  const change: Partial<ProcessingSettings> = {};
  const delay = input.processing_delay_ms;
  if (delay !== undefined) {
    if (Number.isInteger(delay) && (delay as number) >= 0 && (delay as number) <= MAX_PROCESSING_DELAY_MS)
      change.processing_delay_ms = delay as number;
    else errors.push({ in: 'body', name: 'processing_delay_ms', message: `must be an integer from 0 to ${MAX_PROCESSING_DELAY_MS}` });
  }
  const rate = input.failure_rate;
  if (rate !== undefined) {
    if (typeof rate === 'number' && rate >= 0 && rate <= 1) change.failure_rate = rate;
    else errors.push({ in: 'body', name: 'failure_rate', message: 'must be a number from 0 to 1' });
  }
  if (errors.length > 0) throw invalidRequest(errors);
  return change;
}

function parseOutcome(body: unknown): ForcedOutcome {
  const input = requireObject(body);
  const errors: FieldError[] = [];
  if (input.outcome === 'completed') {
    unknownKeys(input, ['outcome', 'content'], errors);
    if (input.content !== undefined && typeof input.content !== 'string')
      errors.push({ in: 'body', name: 'content', message: 'must be a string' });
    if (errors.length > 0) throw invalidRequest(errors);
    return input.content === undefined ? { outcome: 'completed' } : { outcome: 'completed', content: input.content as string };
  }
  if (input.outcome === 'failed') {
    unknownKeys(input, ['outcome', 'error'], errors);
    const error = input.error;
    const valid =
      error === undefined ||
      (isObject(error) &&
        (error.code === 'unreadable_document' || error.code === 'processing_error') &&
        typeof error.message === 'string' &&
        error.message.length > 0 &&
        Object.keys(error).every((k) => k === 'code' || k === 'message'));
    if (!valid)
      errors.push({
        in: 'body',
        name: 'error',
        message: 'must be {"code": "unreadable_document" | "processing_error", "message": "<non-empty text>"}',
      });
    if (errors.length > 0) throw invalidRequest(errors);
    return error === undefined ? { outcome: 'failed' } : { outcome: 'failed', error: error as DocumentError };
  }
  throw invalidRequest([{ in: 'body', name: 'outcome', message: 'must be "completed" or "failed"' }]);
}

/** One control: its methods, answering a request of the caller's tenant. */
type Control = Partial<Record<'GET' | 'POST' | 'PATCH', (request: ApiRequest, tenant: string) => Promise<ApiResponse>>>;

const json = (status: number, value: unknown) => jsonResponse(status, JSON.stringify(value));

/**
 * Controls for frontend teams, outside the contract and keyed like the API: reset the tenant, change its
 * processing settings, inject HTTP faults, seed documents in chosen states, force a document's next
 * outcome, read the tenant's last requests. Paths are relative to `/_mock`; an unknown one is undefined (a 404 for the caller), a known one
 * with another method a 405.
 * @example const controls = createControlsApi(deps); await controls('/reset', request, tenant);
 */
export function createControlsApi({ store, processor, settings, faults, clock, operationIds, journal }: ControlsDeps) {
  const controls: Record<string, Control> = {
    '/reset': {
      async POST(_request, tenant) {
        const deleted = await store.removeTenant(tenant);
        await Promise.all([settings.reset(tenant), faults.reset(tenant), journal.clear(tenant)]);
        return json(200, { deleted_documents: deleted, settings: settings.get(tenant), faults: faults.get(tenant) });
      },
    },
    '/settings': {
      GET: async (_request, tenant) => json(200, settings.get(tenant)),
      PATCH: async (request, tenant) => json(200, await settings.update(tenant, parseSettings(await request.json()))),
    },
    '/seed': {
      async POST(request, tenant) {
        const records = await seedDocuments({ store, processor, clock }, tenant, parseSeeds(await request.json()));
        const documents = await Promise.all(records.map(async (r) => documentJson(r, await store.content(r))));
        return jsonResponse(201, `{"documents":[${documents.join(',')}]}`);
      },
    },
    '/requests': { GET: listRequests(journal, operationIds) },
    '/faults': {
      GET: async (_request, tenant) => json(200, faults.get(tenant)),
      PATCH: async (request, tenant) => json(200, await faults.update(tenant, parseFaultsChange(await request.json(), operationIds))),
    },
  };
  const NEXT_OUTCOME = /^\/documents\/([^/]+)\/next-outcome$/;
  const nextOutcome: Control = {
    async POST(request, tenant) {
      const raw = NEXT_OUTCOME.exec(request.path.slice('/_mock'.length))![1]!;
      let decoded = raw;
      try {
        decoded = decodeURIComponent(raw);
      } catch {
        // judged as it is: not digits, so a 400
      }
      const id = parseDocumentId(decoded);
      const forced = parseOutcome(await request.json());
      const record = await processor.forceOutcome(tenant, id, forced);
      if (!record) throw new ApiError('not_found', `Document ${id} does not exist.`);
      return json(200, { document_id: id, status: record.status, next_outcome: forced });
    },
  };

  return async (path: string, request: ApiRequest, tenant: string): Promise<ApiResponse | undefined> => {
    const control = controls[path] ?? (NEXT_OUTCOME.test(path) ? nextOutcome : undefined);
    if (!control) return undefined;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const handler = control[method as keyof Control];
    if (!handler) {
      const allowed = Object.keys(control).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
      throw new ApiError('method_not_allowed', `${request.method} is not supported here; use ${allowed[0]}.`, {
        headers: { Allow: allowed.join(', ') },
      });
    }
    return handler(request, tenant);
  };
}
