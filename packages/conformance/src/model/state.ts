import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import type { Membership } from '../checks/list-window.js';
import type { AnyCheck, Check, Finding } from '../definitions/check.js';
import { RUN_DEFAULTS } from '../definitions/config.js';
import { show } from '../definitions/describe.js';
import type { WireDocument } from '../transport/api.js';
import { type FileKind, KIND_FACTS } from './file-kinds.js';
import { TimestampGrain } from './timestamps.js';

/** The run's key (`primary`) or the second tenant's (`secondary`). */
export type Tenant = 'primary' | 'secondary';
/** A document status. */
export type Status = 'processing' | 'completed' | 'failed';
type Terminal = Exclude<Status, 'processing'>;

/**
 * How the model's judges hand over a comparison, both throwing at the first difference (which ends the
 * sequence): `check` gives what the model expects and what the target showed to the check's own judge;
 * `verify` records a comparison judged where it is made (the tenancy and race checks the model also holds
 * the target to, whose judges take another scenario's observation).
 */
export interface ModelJudge {
  check<I>(check: Check<I>, observation: I): void;
  verify(check: AnyCheck, holds: boolean, details: () => Finding): void;
}

/** One file of an upload as the model sends it. */
export interface PartSpec {
  filename: string;
  kind: FileKind;
  size: number;
  /** The part's Content-Type when it is not its kind's own (the stored type still comes from the bytes). */
  declared?: string;
}

/** What the model last saw of a document in its current state. */
interface Seen {
  status: Status;
  updatedAt: bigint;
  processedAt: bigint | null;
  /** When (local ms) the current `updated_at` was first seen: a change the suite causes must come later. */
  since: number;
  content?: string | null;
  errorCode?: string;
}

/** A document the sequence created, and what the model knows of it. */
export interface ModelDoc {
  /** `D1`, `D2`, ... in creation order: the name the reproducer script gives it. */
  alias: string;
  id: number;
  tenant: Tenant;
  filename: string;
  kind: FileKind;
  size: number;
  createdAt: bigint;
  attempts: number;
  /** Whether the current run may still be going (it may end at any moment: the model never assumes it has not). */
  mayProcess: boolean;
  /** The statuses the current run may end (or have ended) in. */
  outcomes: Set<Terminal>;
  /** `updated_at` when the current run started: the run cannot end before it. */
  runStart: bigint;
  seen: Seen;
  /**
   * The list answer the model last narrowed this document's possible states from, when it did (not seen
   * itself): a later answer that contradicts what was inferred shows one of the two wrong, and the list
   * is the one the model took at its word.
   */
  inferredFrom?: string;
}

/** What an upload must get. */
export type UploadExpectation =
  | { kind: 'created'; key: string | null; keyed: boolean }
  | { kind: 'replay'; ids: number[]; key: string }
  | { kind: 'refused'; answers: Array<{ status: number; code: string }>; keyed: boolean };

/** The parts of an answer the model judges. */
export interface Answer {
  status: number;
  body: unknown;
  header(name: string): string | null;
  /** When the suite sent the request and received the answer, on its own clock (ms since the epoch). */
  window?: { sent: number; received: number };
}

/** A list query of the model (always scoped by a search term only this sequence's documents can match). */
export interface ListQuery {
  page: number;
  limit: number;
  statusFilter?: Status;
  search: string;
}

/**
 * The executable model of the contract for one sequence: the documents each tenant has, what each may be
 * now, and what the Idempotency-Keys remember. The model's judges (judge-upload.ts, judge-document.ts,
 * judge-list.ts) hand each answer, with what the model expects of it, to the checks' judges, which throw
 * at the first difference, and when the answer agrees have the model learn from it.
 */
export class ServiceModel {
  readonly docs: ModelDoc[] = [];
  /** What each tenant's Idempotency-Keys remember (`tenant\nkey`). */
  readonly remembered = new Map<string, { fingerprint: string; ids: number[] }>();
  /** Keys whose only uses failed: a later success under them is new documents, not a replay. */
  readonly failedKeys = new Set<string>();

  /**
   * @param word the word only this sequence's `word` PDFs hold
   * @param allIds every id any upload handed out in this suite run (ids are never reused)
   * @param replayHeader the header a replayed upload carries (the contract's `Idempotent-Replayed`)
   * @param grain how finely the target's clock writes timestamps, learnt over the whole run
   * @param clockSkewMs how far the target's clock may be from the suite's (--clock-skew-ms)
   */
  constructor(
    readonly word: string,
    readonly allIds: Map<number, string>,
    readonly replayHeader: string | undefined,
    readonly grain: TimestampGrain = new TimestampGrain(),
    readonly clockSkewMs: number = RUN_DEFAULTS.clockSkewMs,
  ) {}

  seeTimes(d: Partial<WireDocument>): void {
    for (const t of [d.created_at, d.updated_at, d.processed_at]) this.grain.see(t);
  }

  /** The tenant's documents, newest first (created_at descending, then document_id descending). */
  listed(tenant: Tenant): ModelDoc[] {
    return this.docs
      .filter((d) => d.tenant === tenant)
      .sort((a, b) => (a.createdAt === b.createdAt ? b.id - a.id : a.createdAt > b.createdAt ? -1 : 1));
  }

  /** The statuses a document may have now. */
  possible(doc: ModelDoc): Status[] {
    return [...(doc.mayProcess ? (['processing'] as const) : []), ...doc.outcomes];
  }

  /** Whether a document with `status` matches `query`. */
  matches(doc: ModelDoc, status: Status, query: ListQuery): boolean {
    if (query.statusFilter && status !== query.statusFilter) return false;
    // The contract's case-insensitive match: full case folding (ß is ss), as the reference server folds.
    const term = foldForSearch(query.search);
    if (foldForSearch(doc.filename).includes(term)) return true;
    // Only a completed document has text; the model knows the words it put in the file, and no
    // other text of the sequence's files can hold a term made of its token or word.
    return status === 'completed' && KIND_FACTS[doc.kind].words(this.word).some((w) => foldForSearch(w).includes(term));
  }

  membership(doc: ModelDoc, query: ListQuery): Membership {
    const verdicts = this.possible(doc).map((s) => this.matches(doc, s, query));
    return verdicts.every(Boolean) ? 'in' : verdicts.some(Boolean) ? 'maybe' : 'out';
  }

  /** What an upload of `parts` by `tenant` under `key` must get. */
  expectUpload(tenant: Tenant, parts: PartSpec[], key: string | null): UploadExpectation {
    const bad = parts.some((p) => KIND_FACTS[p.kind].contentType === undefined);
    const keyed = key !== null && (this.remembered.has(`${tenant}\n${key}`) || this.failedKeys.has(`${tenant}\n${key}`));
    if (key !== null) {
      const earlier = this.remembered.get(`${tenant}\n${key}`);
      if (earlier?.fingerprint === fingerprint(parts)) return { kind: 'replay', ids: earlier.ids, key };
      if (earlier) {
        // Which refusal wins when both apply is not the contract's to say: either will do.
        const reused = { status: 409, code: 'idempotency_key_reused' };
        return { kind: 'refused', answers: bad ? [reused, { status: 415, code: 'unsupported_media_type' }] : [reused], keyed: true };
      }
    }
    if (bad) return { kind: 'refused', answers: [{ status: 415, code: 'unsupported_media_type' }], keyed };
    return { kind: 'created', key, keyed };
  }

  /** The other tenant's memory of `key`, when it would replay these very parts (a leak if the target does). */
  othersReplay(tenant: Tenant, parts: PartSpec[], key: string | null): number[] | undefined {
    const other = this.remembered.get(`${tenant === 'primary' ? 'secondary' : 'primary'}\n${key}`);
    return key !== null && other?.fingerprint === fingerprint(parts) ? other.ids : undefined;
  }

  nameOf(id: number): string {
    return this.docs.find((d) => d.id === id)?.alias ?? String(id);
  }

  /** The document is known to be in one of `statuses` now (as the list answer `from` implies). */
  narrow(doc: ModelDoc, statuses: Set<Status>, from: string): void {
    if (statuses.has('processing')) return;
    const outcomes = new Set([...doc.outcomes].filter((s) => statuses.has(s)));
    if (!doc.mayProcess && outcomes.size === doc.outcomes.size) return;
    doc.mayProcess = false;
    doc.outcomes = outcomes;
    doc.inferredFrom = from;
  }
}

/** What makes two uploads "the same files in the same order with the same names". */
export function fingerprint(parts: PartSpec[]): string {
  return JSON.stringify(parts.map((p) => [p.filename, p.kind]));
}

/** A query in words. */
export function describeQuery(query: ListQuery): string {
  return `search ${show(query.search)}${query.statusFilter ? `, status_filter ${query.statusFilter}` : ''}`;
}
