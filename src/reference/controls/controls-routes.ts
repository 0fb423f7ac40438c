import express, { Router } from 'express';
import { ApiError, type FieldError, invalidRequest, methodNotAllowed } from '../../http/errors.js';
import { tenantOf } from '../auth.js';
import type { DocumentError, ForcedOutcome } from '../model.js';
import { toDocument } from '../model.js';
import type { Processor } from '../processing/processor.js';
import { MAX_PROCESSING_DELAY_MS, type ProcessingSettings, type SettingsRegistry } from '../processing/settings.js';
import type { DocumentStore } from '../store/document-store.js';
import { parseDocumentId } from '../validation.js';
import { type FaultRegistry, parseFaultsChange } from './faults.js';
import { parseSeeds, seedDocuments } from './seeding.js';

/** What the mock controls need. */
export interface MockControlDeps {
  store: DocumentStore;
  processor: Processor;
  settings: SettingsRegistry;
  faults: FaultRegistry;
  clock: () => Date;
  /** The operations faults can be injected into. */
  operationIds: readonly string[];
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

/**
 * Controls for frontend teams, outside the contract and keyed like the API: reset the tenant,
 * change its processing settings, inject HTTP faults, seed documents in chosen states, force a document's next outcome.
 * @example app.use('/_mock', requireApiKey(keyring), mockControlRoutes({ store, processor, settings, faults, clock, operationIds }));
 */
export function mockControlRoutes({ store, processor, settings, faults, clock, operationIds }: MockControlDeps): Router {
  const router = Router();
  // Large enough for a seed of a thousand documents with some text each.
  router.use(express.json({ limit: '2mb', strict: true }));

  router
    .route('/reset')
    .post(async (_req, res) => {
      const tenant = tenantOf(res);
      const deleted = await store.removeTenant(tenant);
      settings.reset(tenant);
      faults.reset(tenant);
      res.json({ deleted_documents: deleted, settings: settings.get(tenant), faults: faults.get(tenant) });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/settings')
    .get((_req, res) => void res.json(settings.get(tenantOf(res))))
    .patch((req, res) => void res.json(settings.update(tenantOf(res), parseSettings(req.body))))
    .all(methodNotAllowed(['GET', 'HEAD', 'PATCH']));

  router
    .route('/seed')
    .post(async (req, res) => {
      const records = await seedDocuments({ store, processor, clock }, tenantOf(res), parseSeeds(req.body));
      const documents = await Promise.all(records.map(async (r) => toDocument(r, await store.content(r))));
      res.status(201).json({ documents });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/faults')
    .get((_req, res) => void res.json(faults.get(tenantOf(res))))
    .patch((req, res) => void res.json(faults.update(tenantOf(res), parseFaultsChange(req.body, operationIds))))
    .all(methodNotAllowed(['GET', 'HEAD', 'PATCH']));

  router
    .route('/documents/:document_id/next-outcome')
    .post(async (req, res) => {
      const id = parseDocumentId(req.params.document_id!);
      const forced = parseOutcome(req.body);
      const record = await processor.forceOutcome(tenantOf(res), id, forced);
      if (!record) throw new ApiError('not_found', `Document ${id} does not exist.`);
      res.json({ document_id: id, status: record.status, next_outcome: forced });
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
