import { type ApiRequest, type ApiResponse, jsonResponse } from '../http/exchange.js';
import { ApiError, type FieldError, invalidRequest } from '../http/problem.js';
import { listRequests } from '../journal/journal-control.js';
import type { RequestJournal } from '../journal/request-journal.js';
import type { DocumentError, ForcedOutcome } from '../model.js';
import type { Processor } from '../processing/processor.js';
import { MAX_PROCESSING_DELAY_MS, type ProcessingSettings, type SettingsRegistry } from '../processing/settings.js';
import type { DocumentStore } from '../store/document-store.js';
import { parseDocumentId } from '../validation.js';
import { type FaultRegistry, parseFaultsChange } from './faults.js';
import { checkText, errorFault, isObject } from './field-checks.js';
import { parseSeeds } from './seed-request.js';
import { seedAnswer, seedDocuments } from './seeding.js';

/** What the mock controls need. */
export interface ControlsDeps {
  store: DocumentStore;
  processor: Processor;
  settings: SettingsRegistry;
  faults: FaultRegistry;
  clock: () => Date;
  /**
   * Resets a tenant whole in one write (documents, settings, faults), where they live together (a
   * database); without it, documents are removed first and the in-memory settings and faults, which
   * cannot fail, reset after.
   */
  resetTenant?: (tenant: string) => Promise<number>;
  /** The operations faults can be injected into. */
  operationIds: readonly string[];
  /** Each tenant's answered requests (`GET /_mock/requests`); a reset clears the tenant's. */
  journal: RequestJournal;
}

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
    checkText(input.content, 'content', errors);
    if (errors.length > 0) throw invalidRequest(errors);
    return input.content === undefined ? { outcome: 'completed' } : { outcome: 'completed', content: input.content as string };
  }
  if (input.outcome === 'failed') {
    unknownKeys(input, ['outcome', 'error'], errors);
    const fault = input.error === undefined ? undefined : errorFault(input.error);
    if (fault) errors.push({ in: 'body', name: 'error', message: fault });
    if (errors.length > 0) throw invalidRequest(errors);
    return input.error === undefined ? { outcome: 'failed' } : { outcome: 'failed', error: input.error as DocumentError };
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
export function createControlsApi({ store, processor, settings, faults, clock, resetTenant, operationIds, journal }: ControlsDeps) {
  // A tenant's seeds run one after another in this process: a bulk import that sends many at once
  // keeps one writer (one connection, one database backend's CPU) instead of many, and the rest of the
  // replica to the other tenants.
  const seeding = new Map<string, Promise<unknown>>();
  const oneSeedAtATime = <T>(tenant: string, work: () => Promise<T>): Promise<T> => {
    const before = seeding.get(tenant) ?? Promise.resolve();
    const mine = before.then(work, work);
    const settled = mine.catch(() => {});
    seeding.set(tenant, settled);
    void settled.then(() => {
      if (seeding.get(tenant) === settled) seeding.delete(tenant);
    });
    return mine;
  };
  const controls: Record<string, Control> = {
    '/reset': {
      async POST(_request, tenant) {
        // All or nothing: a reset that fails (a 503) has changed nothing.
        const deleted = resetTenant
          ? await resetTenant(tenant)
          : await store.removeTenant(tenant).then(async (removed) => {
              await Promise.all([settings.reset(tenant), faults.reset(tenant)]);
              return removed;
            });
        await journal.clear(tenant);
        return json(200, { deleted_documents: deleted, settings: settings.get(tenant), faults: faults.get(tenant) });
      },
    },
    '/settings': {
      GET: async (_request, tenant) => json(200, settings.get(tenant)),
      PATCH: async (request, tenant) => json(200, await settings.update(tenant, parseSettings(await request.json()))),
    },
    '/seed': {
      async POST(request, tenant) {
        const seeds = parseSeeds(await request.json());
        const seeded = await oneSeedAtATime(tenant, () => seedDocuments({ store, processor, clock }, tenant, seeds));
        // From what was stored, not read back: once the seed is stored, its answer cannot fail.
        return jsonResponse(201, await seedAnswer(seeded));
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
