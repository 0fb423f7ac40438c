import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Exchange, KeyChoice } from '../definitions/exchange.js';
import { CHANGES, createViewMemory, listViewStates, type ViewParameters, viewsOf } from './list-view-states.js';

// (operation × document state): which state the document an operation was sent to was in, as far as the
// answers the suite has seen for that id tell. The states are the contract's status enum, the state a retry
// leaves behind (processing again), an id the suite never saw and another tenant's document; an upload's
// "document" is the one its Idempotency-Key names, a list's the documents its tenant holds, and each view of
// a list read again after a kind of change (list-view-states.ts).

/** The state names of one operation, derived from the contract. */
export interface OperationStates {
  operation: string;
  states: string[];
}

export const RETRIED = 'processing again after a retry';
export const UNKNOWN_ID = 'an id the suite never saw';
export const OTHER_TENANT = "another tenant's document";
/**
 * A list read while the tenant holds an older document (uploaded first) that changed after a newer one: its
 * run ended later, or it was retried since. The list's order is by upload, whatever `updated_at` says.
 */
export const ORDER_STATES = {
  endedLater: "holding an older document whose run ended after a newer one's",
  retried: 'holding an older document retried after a newer one changed',
} as const;

/**
 * A read of a document whose run an earlier read showed going on (`processing`), answered with the run
 * ended: its `processed_at` is judged against the timestamps seen while it ran (model/timestamps-walk.ts).
 */
export const ENDED_SINCE_READ_RUNNING = 'its run ended since a read showed it processing';

/** Whether reaching `state` takes another tenant's key (`--second-api-key`). */
export const needsSecondTenant = (state: string) => state === OTHER_TENANT || state.endsWith(" of another tenant's upload");

interface Shape {
  statuses: string[];
  /** The property a document's id travels in: named as the path parameter that takes it (`document_id`). */
  idField: string;
  /** The operation that retries a document (a POST on a path id), if the contract has one. */
  retry?: string;
  byId: string[];
  /** The operations that read a document by its id (a GET on a path id). */
  reads: string[];
  lists: string[];
  /** The list's query parameters that name its views. */
  views: ViewParameters;
  uploads: Array<{ operation: string; keyHeader?: string }>;
}

/**
 * The parameters of the list that tell its views apart: the enum (the status filter), the free-text string
 * (the search), and the integer whose default is its minimum (the page; a page size defaults above it).
 */
function viewParameters(list: Contract['operations'][number] | undefined): ViewParameters {
  const params = ((list?.definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[]).filter((p) => p.in === 'query');
  const schema = (p: OpenAPIV3_1.ParameterObject) => (p.schema ?? {}) as OpenAPIV3_1.SchemaObject;
  const filter = params.find((p) => Array.isArray(schema(p).enum))?.name;
  const search = params.find((p) => schema(p).type === 'string' && !Array.isArray(schema(p).enum))?.name;
  const page = params.find((p) => schema(p).type === 'integer' && schema(p).default === schema(p).minimum)?.name;
  return { ...(filter ? { filter } : {}), ...(search ? { search } : {}), ...(page ? { page } : {}) };
}

function shapeOf(contract: Contract): Shape {
  const status = contract.document.components?.schemas?.DocumentStatus as OpenAPIV3_1.SchemaObject | undefined;
  const statuses = ((status?.enum ?? []) as unknown[]).map(String);
  const withId = contract.operations.filter((o) => /\{[^}]+\}/.test(o.path));
  const byId = withId.map((o) => o.operationId);
  const reads = withId.filter((o) => o.method === 'get').map((o) => o.operationId);
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
  const views = viewParameters(contract.operations.find((o) => o.operationId === lists[0]));
  return { statuses, idField, byId, reads, lists, views, uploads, ...(retry ? { retry } : {}) };
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
    if (shape.byId.includes(id))
      return {
        operation: id,
        states: [...held, ...(shape.reads.includes(id) ? [ENDED_SINCE_READ_RUNNING] : []), UNKNOWN_ID, OTHER_TENANT],
      };
    if (shape.lists.includes(id))
      return {
        operation: id,
        states: [
          ...held.map((s) => `holding a document ${s}`),
          'holding no document',
          ORDER_STATES.endedLater,
          ...(shape.retry ? [ORDER_STATES.retried] : []),
          // The contract's status enum names first the status an upload leaves a document in; a run ends in another.
          ...listViewStates(shape.statuses, shape.statuses.slice(1), shape.views),
        ],
      };
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

/** What the answers said of one document: its tenant, its state, its name and times. */
interface Known {
  tenant: string;
  state: string;
  retriedAs?: string;
  filename?: string;
  running?: string;
  /** Whether a read showed the current run going on. */
  readRunning?: boolean;
  /** `created_at` and `updated_at` as last answered, in milliseconds. */
  created?: number;
  updated?: number;
}

/** The order states a list of a tenant holding `docs` reaches: an older one changed after a newer one. */
function orderStates(docs: readonly Known[], terminal: readonly string[]): string[] {
  const found = new Set<string>();
  for (const older of docs)
    for (const newer of docs) {
      if (older.created === undefined || newer.created === undefined || older.updated === undefined || newer.updated === undefined)
        continue;
      if (!(older.created < newer.created && older.updated > newer.updated)) continue;
      if (older.state === RETRIED) found.add(ORDER_STATES.retried);
      else if (terminal.includes(older.state) && terminal.includes(newer.state)) found.add(ORDER_STATES.endedLater);
    }
  return [...found];
}

const millis = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined);

/** A tracker for one sender (a scenario file): ids it never saw are unknown to it. */
export function createStateTracker(contract: Contract): StateTracker {
  const shape = shapeOf(contract);
  const documents = new Map<string, Known>();
  const keys = new Map<string, string>();
  const views = createViewMemory();
  // `running`: the status a document's run goes on in (as its upload's or retry's answer showed it), until
  // an answer shows another: then its run has ended, a change of the tenant's lists.
  const learn = (tenant: string, doc: unknown, how: 'read' | 'upload' | 'retry' = 'read') => {
    const { [shape.idField]: id, status, filename, created_at, updated_at } = (doc ?? {}) as Record<string, unknown>;
    if ((typeof id !== 'number' && typeof id !== 'string') || typeof status !== 'string') return;
    const known = documents.get(String(id));
    const owner = known?.tenant ?? tenant;
    const name = typeof filename === 'string' ? filename : known?.filename;
    const created = millis(created_at) ?? known?.created;
    const updated = millis(updated_at) ?? known?.updated;
    const base = {
      tenant: owner,
      ...(name !== undefined ? { filename: name } : {}),
      ...(created !== undefined ? { created } : {}),
      ...(updated !== undefined ? { updated } : {}),
    };
    let running = how === 'read' ? known?.running : status;
    if (how === 'read' && running !== undefined && status !== running) {
      views.changed(owner, CHANGES.ending(status));
      running = undefined;
    }
    const run = {
      ...(running !== undefined ? { running } : {}),
      // The status an upload leaves a document in (the enum's first) is the one its runs go on in.
      ...(how === 'read' && status === shape.statuses[0] ? { readRunning: true } : {}),
    };
    // A retried document stays "processing again" until an answer shows it in another status than the retry's.
    if (how === 'retry') documents.set(String(id), { ...base, ...run, state: RETRIED, retriedAs: status });
    else if (known?.state === RETRIED && known.retriedAs === status) documents.set(String(id), { ...known, ...base, ...run });
    else documents.set(String(id), { ...base, ...run, state: status });
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
        const id = decodedSegment(url.pathname.split('/').pop() ?? '');
        // Only a plain id names a document; other spellings are the path id's input partitions.
        const doc = /^[1-9]\d*$/.test(id) ? documents.get(id) : undefined;
        if (/^[1-9]\d*$/.test(id)) reached.push(!doc ? UNKNOWN_ID : doc.tenant !== tenant ? OTHER_TENANT : doc.state);
        if (ok && operation === shape.retry) views.changed(tenant, CHANGES.retry);
        if (ok) learn(tenant, exchange.json, operation === shape.retry ? 'retry' : 'read');
        const ended = (json as { status?: unknown } | undefined)?.status;
        if (
          ok &&
          doc?.readRunning &&
          doc.tenant === tenant &&
          shape.reads.includes(operation) &&
          shape.statuses.slice(1).includes(String(ended))
        )
          reached.push(ENDED_SINCE_READ_RUNNING);
      } else if (shape.lists.includes(operation)) {
        const held = new Set([...documents.values()].filter((d) => d.tenant === tenant).map((d) => d.state));
        reached.push(...(held.size ? [...held].map((s) => `holding a document ${s}`) : ['holding no document']));
        const tenants = [...documents.values()].filter((d) => d.tenant === tenant);
        reached.push(...orderStates(tenants, shape.statuses.slice(1)));
        if (ok) {
          const pagination = (exchange.json as { pagination?: { page?: number; total_pages?: number } } | undefined)?.pagination;
          const names = [...documents.values()].filter((d) => d.tenant === tenant && d.filename !== undefined).map((d) => d.filename!);
          const query = [...url.searchParams]
            .map(([k, v]) => `${k}=${v}`)
            .sort()
            .join('&');
          reached.push(
            ...views.read(tenant, query, viewsOf(url, shape.views, names, { page: pagination?.page, totalPages: pagination?.total_pages })),
          );
          for (const doc of json?.documents ?? []) learn(tenant, doc);
        }
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
        const created = json?.documents ?? [];
        const known = (d: unknown) => documents.has(String((d as Record<string, unknown> | undefined)?.[shape.idField]));
        // A replay shows its documents as the first answer did, not as they are: nothing to learn from it.
        const replay = ok && created.length > 0 && created.every(known);
        if (ok) views.changed(tenant, replay ? CHANGES.replay : CHANGES.upload);
        else if (exchange.status >= 400 && exchange.status < 500) views.changed(tenant, CHANGES.refused);
        if (ok && !replay) for (const doc of created) learn(tenant, doc, 'upload');
      }
      return reached.map((state) => ({ operation, state }));
    },
  };
}

/** A path segment decoded; one that is not valid percent-encoding (`%zz`, sent so on purpose) as it is. */
function decodedSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
