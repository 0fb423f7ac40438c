import type { Faults } from '@docproc-kit/reference/controls/faults.js';
import type { entryJson } from '@docproc-kit/reference/journal/request-journal.js';
import type { Document, DocumentError, ForcedOutcome } from '@docproc-kit/reference/model.js';
import type { ProcessingSettings } from '@docproc-kit/reference/processing/settings.js';

/** A document to create directly in a state (the body of `POST /_mock/seed`, see @docproc-kit/contract's openapi/mock-controls.yaml). */
export interface SeedDocument {
  status: 'processing' | 'completed' | 'failed';
  /** `{n}` is replaced by 1..count (default `seeded-{n}.pdf`). */
  filename?: string;
  /** The extracted text of a completed document. */
  content?: string;
  /** Why a failed document failed. */
  error?: DocumentError;
  /** How long ago it was uploaded, in seconds (default 0). */
  age_s?: number;
  /** How many processing runs it has had (default 1). */
  attempts?: number;
  /** How many such documents (default 1). */
  count?: number;
}

/** One operation's injected errors (`retry_after_s` defaults to 5 for 429 and 503). */
export interface FaultRuleChange {
  rate: number;
  status: 429 | 500 | 503;
  retry_after_s?: number;
}

/** A change to a tenant's injected faults: latency replaced, rules merged by operationId (`null` removes one). */
export interface FaultsChange {
  latency_ms?: number;
  jitter_ms?: number;
  errors?: Partial<Record<'uploadDocuments' | 'listDocuments' | 'getDocument' | 'retryDocument', FaultRuleChange | null>>;
}

/** One answered request of the tenant, as `GET /_mock/requests` shows it (never a key, never a file's bytes). */
/** One request of `controls.requests()`: what `GET /_mock/requests` lists (its arrival as ISO 8601). */
export type RecordedRequest = ReturnType<typeof entryJson>;

/** Which recorded requests to list: a status (`404`) or a class (`'4xx'`), and an operationId. */
export interface RequestsFilter {
  status?: number | `${1 | 2 | 3 | 4 | 5}xx`;
  operation?: 'uploadDocuments' | 'listDocuments' | 'getDocument' | 'retryDocument';
}

/** Which tenant a control acts on: the tenant of this key (default: the first of `apiKeys`). */
export interface ControlTarget {
  apiKey?: string;
}

/** Thrown by a control the mock refused (a 4xx problem: an unknown document, an invalid change). */
export class DocprocControlError extends Error {
  override readonly name = 'DocprocControlError';
  constructor(
    readonly status: number,
    readonly problem: unknown,
  ) {
    super(`mock control refused (${status}): ${JSON.stringify(problem)}`);
  }
}

/**
 * The mock controls as functions, for tests that arrange a state without HTTP. Each goes through the same
 * core as a `/_mock/...` request with the tenant's key, so it behaves exactly as the reference server's.
 */
export interface DocprocControls {
  /** Deletes the tenant's documents and restores its settings and faults; without a key, every tenant's. */
  reset(target?: ControlTarget): Promise<void>;
  /** Creates documents directly in their states (up to 1000 a call, all or nothing); resolves to them. */
  seed(documents: SeedDocument[], target?: ControlTarget): Promise<Document[]>;
  /** Forces how the document's next finished run ends (the current run if processing, else the next retry). */
  nextOutcome(documentId: number, outcome: ForcedOutcome, target?: ControlTarget): Promise<void>;
  /** Injects latency and 429/500/503 answers into the tenant's API requests; resolves to the faults now in force. */
  faults(change: FaultsChange, target?: ControlTarget): Promise<Faults>;
  /** Changes the tenant's processing delay or failure rate (`{}` changes nothing); resolves to the settings now in force. */
  settings(change?: Partial<ProcessingSettings>, target?: ControlTarget): Promise<ProcessingSettings>;
  /** The tenant's last answered requests, newest first (what your page sent, and what it got). */
  requests(filter?: RequestsFilter, target?: ControlTarget): Promise<RecordedRequest[]>;
}

/** Sends one control request to the core (a path under `/_mock`). */
export type ControlSender = (path: string, init: RequestInit) => Promise<Response>;

/**
 * The controls over a sender that reaches the core in this process.
 * @example const controls = createControls((path, init) => handle(new Request(`http://mock${path}`, init)), ['docproc-dev-key']);
 */
export function createControls(send: ControlSender, apiKeys: readonly string[]): DocprocControls {
  const call = async <T>(method: string, path: string, body: unknown, target: ControlTarget = {}): Promise<T> => {
    const headers: Record<string, string> = { 'x-api-key': target.apiKey ?? apiKeys[0]! };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await send(`/_mock${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = (await response.json()) as unknown;
    if (!response.ok) throw new DocprocControlError(response.status, answer);
    return answer as T;
  };
  return {
    async reset(target) {
      const keys = target?.apiKey === undefined ? apiKeys : [target.apiKey];
      for (const apiKey of keys) await call('POST', '/reset', undefined, { apiKey });
    },
    seed: async (documents, target) => (await call<{ documents: Document[] }>('POST', '/seed', { documents }, target)).documents,
    async nextOutcome(documentId, outcome, target) {
      await call('POST', `/documents/${encodeURIComponent(documentId)}/next-outcome`, outcome, target);
    },
    faults: (change, target) => call('PATCH', '/faults', change, target),
    settings: (change = {}, target) => call('PATCH', '/settings', change, target),
    async requests(filter = {}, target) {
      const query = new URLSearchParams();
      if (filter.status !== undefined) query.set('status', String(filter.status));
      if (filter.operation !== undefined) query.set('operation', filter.operation);
      const search = query.size > 0 ? `?${query}` : '';
      return (await call<{ requests: RecordedRequest[] }>('GET', `/requests${search}`, undefined, target)).requests;
    },
  };
}
