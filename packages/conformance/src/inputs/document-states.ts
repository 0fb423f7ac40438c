import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Exchange, KeyChoice } from '../definitions/exchange.js';

// (operation × document state): which state the document an operation was sent to was in, as far as the
// answers the suite has seen for that id tell. The states are the contract's status enum, the state a retry
// leaves behind (processing again), an id the suite never saw and another tenant's document; an upload's
// "document" is the one its Idempotency-Key names, a list's the documents its tenant holds.

/** The state names of one operation, derived from the contract. */
export interface OperationStates {
  operation: string;
  states: string[];
}

export const RETRIED = 'processing again after a retry';
export const UNKNOWN_ID = 'an id the suite never saw';
export const OTHER_TENANT = "another tenant's document";

interface Shape {
  statuses: string[];
  /** The property a document's id travels in: named as the path parameter that takes it (`document_id`). */
  idField: string;
  /** The operation that retries a document (a POST on a path id), if the contract has one. */
  retry?: string;
  byId: string[];
  lists: string[];
  uploads: Array<{ operation: string; keyHeader?: string }>;
}

function shapeOf(contract: Contract): Shape {
  const status = contract.document.components?.schemas?.DocumentStatus as OpenAPIV3_1.SchemaObject | undefined;
  const statuses = ((status?.enum ?? []) as unknown[]).map(String);
  const withId = contract.operations.filter((o) => /\{[^}]+\}/.test(o.path));
  const byId = withId.map((o) => o.operationId);
  const idField = /\{([^}]+)\}/.exec(withId[0]?.path ?? '')?.[1] ?? 'id';
  const retry = contract.operations.find((o) => o.method === 'post' && byId.includes(o.operationId))?.operationId;
  const uploads = contract.operations
    .filter((o) => (o.definition.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content?.['multipart/form-data'])
    .map((o) => {
      const key = ((o.definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[]).find(
        (p) => p.in === 'header' && /idempotency/i.test(p.name),
      );
      return { operation: o.operationId, ...(key ? { keyHeader: key.name } : {}) };
    });
  const lists = contract.operations
    .filter((o) => o.method === 'get' && !byId.includes(o.operationId) && !uploads.some((u) => u.operation === o.operationId))
    .map((o) => o.operationId);
  return { statuses, idField, byId, lists, uploads, ...(retry ? { retry } : {}) };
}

/**
 * Every (operation × state) pair the contract implies, per operation.
 * @example documentStates(contract).find((o) => o.operation === 'getDocument')?.states // ['processing', 'completed', 'failed', ...]
 */
export function documentStates(contract: Contract): OperationStates[] {
  const shape = shapeOf(contract);
  const held = [...shape.statuses, ...(shape.retry ? [RETRIED] : [])];
  return contract.operations.map((op) => {
    const id = op.operationId;
    if (shape.byId.includes(id)) return { operation: id, states: [...held, UNKNOWN_ID, OTHER_TENANT] };
    if (shape.lists.includes(id)) return { operation: id, states: [...held.map((s) => `holding a document ${s}`), 'holding no document'] };
    const upload = shape.uploads.find((u) => u.operation === id);
    if (upload?.keyHeader)
      return {
        operation: id,
        states: [
          `no ${upload.keyHeader}`,
          `a new ${upload.keyHeader}`,
          `the ${upload.keyHeader} of an earlier upload`,
          `the ${upload.keyHeader} of another tenant's upload`,
        ],
      };
    return { operation: id, states: [] };
  });
}

const tenantOf = (key: KeyChoice): string | undefined => (key === 'primary' || key === 'secondary' ? key : undefined);

/** Remembers what the answers said of each document and key, and names the state each request was sent to. */
export interface StateTracker {
  /** The (operation, state) pairs `exchange` reached, judged by what was seen before it; then learns from its answer. */
  observe(exchange: Exchange): Array<{ operation: string; state: string }>;
}

/** A tracker for one sender (a scenario file): ids it never saw are unknown to it. */
export function createStateTracker(contract: Contract): StateTracker {
  const shape = shapeOf(contract);
  const documents = new Map<string, { tenant: string; state: string; retriedAs?: string }>();
  const keys = new Map<string, string>();
  const learn = (tenant: string, doc: unknown, retried = false) => {
    const { [shape.idField]: id, status } = (doc ?? {}) as Record<string, unknown>;
    if ((typeof id !== 'number' && typeof id !== 'string') || typeof status !== 'string') return;
    const known = documents.get(String(id));
    const owner = known?.tenant ?? tenant;
    // A retried document stays "processing again" until an answer shows it in another status than the retry's.
    if (retried) documents.set(String(id), { tenant: owner, state: RETRIED, retriedAs: status });
    else if (known?.state === RETRIED && known.retriedAs === status) return;
    else documents.set(String(id), { tenant: owner, state: status });
  };
  return {
    observe(exchange) {
      const operation = exchange.target.operationId;
      const tenant = tenantOf(exchange.request.key);
      if (exchange.target.kind !== 'operation' || !operation || !tenant) return [];
      const url = new URL(exchange.request.url);
      const json = exchange.json as { documents?: unknown[] } | undefined;
      const ok = exchange.status >= 200 && exchange.status < 300;
      const reached: string[] = [];
      if (shape.byId.includes(operation)) {
        const id = decodeURIComponent(url.pathname.split('/').pop() ?? '');
        // Only a plain id names a document; other spellings are the path id's input partitions.
        if (/^[1-9]\d*$/.test(id)) {
          const doc = documents.get(id);
          reached.push(!doc ? UNKNOWN_ID : doc.tenant !== tenant ? OTHER_TENANT : doc.state);
        }
        if (ok) learn(tenant, exchange.json, operation === shape.retry);
      } else if (shape.lists.includes(operation)) {
        const held = new Set([...documents.values()].filter((d) => d.tenant === tenant).map((d) => d.state));
        reached.push(...(held.size ? [...held].map((s) => `holding a document ${s}`) : ['holding no document']));
        if (ok) for (const doc of json?.documents ?? []) learn(tenant, doc);
      } else {
        const upload = shape.uploads.find((u) => u.operation === operation);
        if (upload?.keyHeader) {
          const name = upload.keyHeader;
          const sent = Object.entries(exchange.request.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
          const owner = sent === undefined ? undefined : keys.get(sent);
          reached.push(
            sent === undefined
              ? `no ${name}`
              : !owner
                ? `a new ${name}`
                : owner === tenant
                  ? `the ${name} of an earlier upload`
                  : `the ${name} of another tenant's upload`,
          );
          if (ok && sent !== undefined && !owner) keys.set(sent, tenant);
        }
        if (ok) for (const doc of json?.documents ?? []) learn(tenant, doc);
      }
      return reached.map((state) => ({ operation, state }));
    },
  };
}
