import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import { type Check, checks } from '../checks/index.js';
import { show } from '../judging/describe.js';
import { codeOf } from '../kit/api.js';
import { type FileKind, KIND_FACTS } from './files.js';
import { type Candidate, judgeWindow, type Membership } from './list-window.js';
import { instantOf, TimestampGrain } from './timestamps.js';

/** The run's key (`primary`) or the second tenant's (`secondary`). */
export type Tenant = 'primary' | 'secondary';
/** A document status. */
export type Status = 'processing' | 'completed' | 'failed';
type Terminal = Exclude<Status, 'processing'>;

/** Why an answer differs from the model: what the target said and what the model expected. */
export interface Mismatch {
  received: string;
  expected: string;
  note?: string;
}

/** Records a comparison: a pass of `check` when `holds`, else throws its failure (built from `details`). */
export type Verify = (check: Check, holds: boolean, details: () => Mismatch) => void;

/** A document as the wire shows it (list items lack `content`). */
export interface WireDoc {
  document_id: number;
  filename: string;
  content_type: string;
  size_bytes: number;
  status: Status;
  attempts: number;
  error: { code: string; message: string } | null;
  content?: string | null;
  created_at: string;
  updated_at: string;
  processed_at: string | null;
}

/** One file of an upload as the model sends it. */
export interface PartSpec {
  filename: string;
  kind: FileKind;
  size: number;
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
}

/** A list query of the model (always scoped by a search term only this sequence's documents can match). */
export interface ListQuery {
  page: number;
  limit: number;
  statusFilter?: Status;
  search: string;
}

const lower = (s: string) => s.toLowerCase();

/**
 * The executable model of the contract for one sequence: the documents each tenant has, what each may be
 * now, and what the Idempotency-Keys remember. Every judge* method compares one answer with it through
 * `verify` (which throws at the first difference) and, when the answer agrees, learns from it.
 */
export class ServiceModel {
  readonly docs: ModelDoc[] = [];
  private readonly remembered = new Map<string, { fingerprint: string; ids: number[] }>();
  /** Keys whose only uses failed: a later success under them is new documents, not a replay. */
  private readonly failedKeys = new Set<string>();

  /**
   * @param word the word only this sequence's `word` PDFs hold
   * @param allIds every id any upload handed out in this suite run (ids are never reused)
   * @param replayHeader the header a replayed upload carries (the contract's `Idempotent-Replayed`)
   * @param grain how finely the target's clock writes timestamps, learnt over the whole run
   */
  constructor(
    readonly word: string,
    private readonly allIds: Map<number, string>,
    private readonly replayHeader: string | undefined,
    readonly grain: TimestampGrain = new TimestampGrain(),
  ) {}

  private seeTimes(d: Partial<WireDoc>): void {
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

  private membership(doc: ModelDoc, query: ListQuery): Membership {
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
  private othersReplay(tenant: Tenant, parts: PartSpec[], key: string | null): number[] | undefined {
    const other = this.remembered.get(`${tenant === 'primary' ? 'secondary' : 'primary'}\n${key}`);
    return key !== null && other?.fingerprint === fingerprint(parts) ? other.ids : undefined;
  }

  /** Judges an upload's answer against `expected`; learns the new documents. */
  judgeUpload(
    tenant: Tenant,
    parts: PartSpec[],
    key: string | null,
    expected: UploadExpectation,
    answer: Answer,
    at: number,
    verify: Verify,
  ): void {
    const C = checks.model;
    const docs = (answer.body as { documents?: WireDoc[] } | undefined)?.documents ?? [];
    const ids = docs.map((d) => d.document_id);
    const got = `${answer.status}${codeOf(answer.body) ? ` ${codeOf(answer.body)}` : ''}${docs.length ? ` ids ${show(ids)}` : ''}`;
    const replayed = this.replayHeader ? answer.header(this.replayHeader) : null;
    const leak = this.othersReplay(tenant, parts, key);
    if (leak && answer.status === 202 && sameList(ids, leak)) {
      verify(checks.tenancy.idempotencyKeyScoped, false, () => ({
        received: `202 replaying the other tenant's documents ${show(ids)}`,
        expected: `new documents: Idempotency-Key ${show(key)} was used by the other API key, not by this one`,
      }));
    }
    if (expected.kind === 'replay') {
      verify(C.idempotencyLifecycle, answer.status === 202 && sameList(ids, expected.ids), () => ({
        received: got,
        expected: `202 replaying the first upload under Idempotency-Key ${show(key)}: ids ${show(expected.ids)}, nothing created`,
      }));
      if (this.replayHeader) {
        verify(C.idempotencyLifecycle, replayed === 'true', () => ({
          received: `${this.replayHeader}: ${show(replayed)}`,
          expected: `${this.replayHeader}: true on a replay`,
        }));
      }
      verify(
        C.idempotencyLifecycle,
        docs.every((d, i) => d.filename === parts[i]?.filename),
        () => ({
          received: `filenames ${show(docs.map((d) => d.filename))}`,
          expected: `the replayed upload's filenames ${show(parts.map((p) => p.filename))}`,
        }),
      );
      return;
    }
    if (expected.kind === 'refused') {
      const allowed = expected.answers.some((a) => a.status === answer.status && a.code === codeOf(answer.body));
      verify(expected.keyed ? C.idempotencyLifecycle : C.documents, allowed, () => ({
        received: got,
        expected: `${expected.answers.map((a) => `${a.status} ${a.code}`).join(' or ')}, and nothing created${
          expected.keyed
            ? ` (Idempotency-Key ${show(key)} ${this.remembered.has(`${tenant}\n${key}`) ? 'was used for other files' : 'was only used by uploads that failed'})`
            : ''
        }`,
      }));
      if (key !== null && !this.remembered.has(`${tenant}\n${key}`)) this.failedKeys.add(`${tenant}\n${key}`);
      return;
    }
    // A new upload under a key is part of that key's lifecycle; one without a key is just new documents.
    const idempotency = key !== null ? C.idempotencyLifecycle : C.documents;
    const fresh = `202 with ${parts.length} new document(s)${
      expected.keyed ? ` (Idempotency-Key ${show(key)} was only used by uploads that failed, which are not remembered)` : ''
    }`;
    verify(idempotency, answer.status === 202, () => ({ received: got, expected: fresh }));
    if (this.replayHeader) {
      verify(idempotency, replayed === null, () => ({
        received: `${this.replayHeader}: ${show(replayed)}`,
        expected: `no ${this.replayHeader} header: this upload is not a replay`,
      }));
    }
    verify(C.documents, docs.length === parts.length, () => ({ received: got, expected: `${fresh}, one per part` }));
    const seen = new Map<number, string>();
    ids.forEach((id, i) => {
      const name = parts[i]?.filename ?? '';
      const finding = checks.races.distinctIds.judge!({ kind: 'new-id', id, name, earlier: seen.get(id) ?? this.allIds.get(id) });
      verify(checks.races.distinctIds, finding === undefined, () => finding!);
      seen.set(id, `${show(name)} (this upload)`);
    });
    docs.forEach((d, i) => {
      const part = parts[i]!;
      const facts = KIND_FACTS[part.kind];
      const want = {
        filename: part.filename,
        content_type: facts.contentType,
        size_bytes: part.size,
        status: 'processing',
        attempts: 1,
        content: null,
        error: null,
        processed_at: null,
      };
      const have = Object.fromEntries(Object.keys(want).map((k) => [k, (d as unknown as Record<string, unknown>)[k]]));
      verify(C.documents, JSON.stringify(have) === JSON.stringify(want), () => ({
        received: `part ${i + 1}: ${show(have)}`,
        expected: `part ${i + 1}: ${show(want)}`,
      }));
      const created = instantOf(d.created_at)!;
      const updated = instantOf(d.updated_at)!;
      verify(C.updatedAtMoves, updated >= created, () => ({
        received: `part ${i + 1}: created_at ${d.created_at}, updated_at ${d.updated_at}`,
        expected: 'updated_at not before created_at',
      }));
    });
    docs.forEach((d, i) => {
      const part = parts[i]!;
      const updated = instantOf(d.updated_at)!;
      this.seeTimes(d);
      this.allIds.set(d.document_id, `${show(part.filename)} (${tenant === 'primary' ? 'the first' : 'the second'} key)`);
      this.docs.push({
        alias: `D${this.docs.length + 1}`,
        id: d.document_id,
        tenant,
        filename: part.filename,
        kind: part.kind,
        size: part.size,
        createdAt: instantOf(d.created_at)!,
        attempts: 1,
        mayProcess: true,
        outcomes: new Set(KIND_FACTS[part.kind].outcomes),
        runStart: updated,
        seen: { status: 'processing', updatedAt: updated, processedAt: null, since: at },
      });
    });
    if (key !== null) this.remembered.set(`${tenant}\n${key}`, { fingerprint: fingerprint(parts), ids });
  }

  /** Judges a read of `doc` by `tenant`. */
  judgeGet(tenant: Tenant, doc: ModelDoc, answer: Answer, at: number, verify: Verify): void {
    if (doc.tenant !== tenant) {
      this.hidden(doc, answer, verify, 'read');
      return;
    }
    verify(checks.model.documents, answer.status === 200, () => ({
      received: `${answer.status} ${show(codeOf(answer.body) ?? '')}`,
      expected: `200: ${doc.alias} belongs to this key`,
    }));
    this.observe(doc, answer.body as WireDoc, true, at, verify);
  }

  /** Judges a retry of `doc` by `tenant`: a 202 for a finished run, a 409 while one may be going on. */
  judgeRetry(tenant: Tenant, doc: ModelDoc, answer: Answer, at: number, verify: Verify): void {
    const C = checks.model;
    if (doc.tenant !== tenant) {
      this.hidden(doc, answer, verify, 'retried');
      return;
    }
    const got = `${answer.status} ${show(codeOf(answer.body) ?? '')}`;
    if (!doc.mayProcess) {
      const blame = this.blame(doc);
      verify(blame.check, answer.status === 202, () => ({
        received: got,
        expected: `202: ${doc.alias} has finished (${[...doc.outcomes].join(' or ')}), so a retry starts a new run`,
        ...(blame.note ? { note: blame.note } : {}),
      }));
    } else {
      verify(C.documents, answer.status === 202 || (answer.status === 409 && codeOf(answer.body) === 'document_busy'), () => ({
        received: got,
        expected: `409 document_busy while ${doc.alias}'s run goes on, or 202 if it has just ended`,
      }));
      // Busy: the run was still going when the retry arrived; nothing changed.
      if (answer.status === 409) return;
    }
    const d = answer.body as WireDoc;
    this.seeTimes(d);
    const want = {
      document_id: doc.id,
      filename: doc.filename,
      status: 'processing',
      attempts: doc.attempts + 1,
      content: null,
      error: null,
      processed_at: null,
    };
    const have = Object.fromEntries(Object.keys(want).map((k) => [k, (d as unknown as Record<string, unknown>)[k]]));
    verify(C.documents, JSON.stringify(have) === JSON.stringify(want), () => ({ received: show(have), expected: show(want) }));
    verify(C.processedAt, instantOf(d.created_at) === doc.createdAt, () => ({
      received: `created_at ${d.created_at}`,
      expected: 'created_at as the upload gave it',
    }));
    const updated = instantOf(d.updated_at)!;
    verify(C.updatedAtMoves, updated > doc.seen.updatedAt, () => ({
      received: `updated_at ${d.updated_at}`,
      expected: `later than ${doc.alias}'s updated_at before the retry (the retry started a new run)`,
    }));
    doc.attempts += 1;
    doc.mayProcess = true;
    doc.outcomes = new Set(KIND_FACTS[doc.kind].outcomes);
    doc.runStart = updated;
    doc.seen = { status: 'processing', updatedAt: updated, processedAt: null, since: at };
    delete doc.inferredFrom;
  }

  /** Another tenant's document: a 404 not_found, on read and on retry. */
  private hidden(doc: ModelDoc, answer: Answer, verify: Verify, what: string): void {
    // A 200 with some other document is a wrong answer, not a leak of this one.
    const other = (answer.body as Partial<WireDoc> | undefined)?.document_id;
    verify(checks.model.documents, answer.status !== 200 || other === undefined || other === doc.id, () => ({
      received: `${answer.status}: document ${other} (${show((answer.body as Partial<WireDoc>).filename)})`,
      expected: `404 not_found: ${doc.alias} (document ${doc.id}) belongs to the other key, and no other document was asked for`,
    }));
    verify(checks.tenancy.documentHidden, answer.status === 404 && codeOf(answer.body) === 'not_found', () => ({
      received: `${answer.status} ${show(codeOf(answer.body) ?? (answer.body as WireDoc | undefined)?.filename ?? '')}`,
      expected: `404 not_found: ${doc.alias} belongs to the other key and cannot be ${what}`,
    }));
  }

  /** Judges one page of the tenant's list for `query`. */
  judgeList(tenant: Tenant, query: ListQuery, answer: Answer, at: number, verify: Verify): void {
    const C = checks.model;
    verify(C.lists, answer.status === 200, () => ({ received: `${answer.status} ${show(codeOf(answer.body) ?? '')}`, expected: '200' }));
    const body = answer.body as { documents: WireDoc[]; pagination: { page: number; limit: number; total: number; total_pages: number } };
    const listedIds = body.documents.map((d) => d.document_id);
    const mine = this.listed(tenant);
    const theirs = body.documents.map((w) => this.docs.find((d) => d.id === w.document_id)).find((d) => d && d.tenant !== tenant);
    // Only a list the other tenant's documents could leak into says anything about tenancy.
    if (this.docs.some((d) => d.tenant !== tenant))
      verify(checks.tenancy.listHidden, theirs === undefined, () => ({
        received: `the list shows ${theirs!.alias} (${theirs!.id} ${show(theirs!.filename)})`,
        expected: `only this key's documents: ${theirs!.alias} belongs to the other key`,
      }));
    for (const w of body.documents) {
      const doc = this.docs.find((d) => d.id === w.document_id);
      verify(C.lists, doc !== undefined, () => ({
        received: `the list shows document ${w.document_id} ${show(w.filename)}`,
        expected: `only documents this sequence created (${this.expectation(mine, query)})`,
        note: 'a document no accepted upload of the sequence returned matches its search term',
      }));
      verify(C.lists, listedIds.indexOf(w.document_id) === listedIds.lastIndexOf(w.document_id), () => ({
        received: `document ${w.document_id} listed twice on one page`,
        expected: 'each document once',
      }));
    }
    for (const w of body.documents) this.observe(this.docs.find((d) => d.id === w.document_id)!, w, false, at, verify);
    for (const w of body.documents) {
      const doc = this.docs.find((d) => d.id === w.document_id)!;
      verify(C.lists, this.matches(doc, w.status, query), () => ({
        received: `${doc.alias} listed as ${w.status} (${show(w.filename)})`,
        expected: `only documents matching ${describeQuery(query)}`,
      }));
    }
    const candidates: Candidate[] = mine.map((d) => ({
      id: d.id,
      membership: listedIds.includes(d.id) ? 'in' : this.membership(d, query),
    }));
    const verdict = judgeWindow(
      candidates,
      {
        ids: listedIds,
        page: body.pagination.page,
        limit: body.pagination.limit,
        total: body.pagination.total,
        totalPages: body.pagination.total_pages,
      },
      query.page,
      query.limit,
    );
    verify(C.lists, verdict.ok, () => ({
      received: `page ${body.pagination.page}: ${show(listedIds.map((id) => this.nameOf(id)))}, total ${body.pagination.total}, total_pages ${body.pagination.total_pages}`,
      expected: this.expectation(mine, query),
      note: verdict.ok ? undefined : verdict.problem,
    }));
    if (!verdict.ok) return;
    for (const [id, included] of verdict.forced) {
      const doc = mine.find((d) => d.id === id)!;
      if (listedIds.includes(id)) continue;
      const from = `${describeQuery(query)}, page ${query.page}, limit ${query.limit}: ${listedIds.length} listed, total ${body.pagination.total}, so ${doc.alias} ${included ? 'matched' : 'did not match'}`;
      this.narrow(doc, new Set(this.possible(doc).filter((s) => this.matches(doc, s, query) === included)), from);
    }
  }

  /** What a list of `query` should hold, in words, with documents whose run may have ended marked. */
  expectation(mine: ModelDoc[], query: ListQuery): string {
    const marked = mine
      .filter((d) => this.membership(d, query) !== 'out')
      .map((d) => (this.membership(d, query) === 'in' ? d.alias : `${d.alias}?`));
    const start = (query.page - 1) * query.limit;
    const sure = marked.filter((m) => !m.endsWith('?')).length;
    return `page ${query.page} (limit ${query.limit}) of the matching documents ${show(marked)}${
      sure < marked.length ? ' (? = matches only if its run has ended as the filter or search needs, which it may have by now)' : ''
    }: documents ${start + 1}-${start + query.limit}, total ${sure === marked.length ? sure : `${sure} to ${marked.length}`}`;
  }

  private nameOf(id: number): string {
    return this.docs.find((d) => d.id === id)?.alias ?? String(id);
  }

  /** The document is known to be in one of `statuses` now (as the list answer `from` implies). */
  private narrow(doc: ModelDoc, statuses: Set<Status>, from: string): void {
    if (statuses.has('processing')) return;
    const outcomes = new Set([...doc.outcomes].filter((s) => statuses.has(s)));
    if (!doc.mayProcess && outcomes.size === doc.outcomes.size) return;
    doc.mayProcess = false;
    doc.outcomes = outcomes;
    doc.inferredFrom = from;
  }

  /** The check to blame when an answer about `doc` contradicts what the model knows: the list it inferred that from, if any. */
  private blame(doc: ModelDoc): { check: Check; note?: string } {
    return doc.inferredFrom
      ? {
          check: checks.model.lists,
          note: `what the model knew came from an earlier list (${doc.inferredFrom}): that list and this answer cannot both be right`,
        }
      : { check: checks.model.documents };
  }

  /** Compares one document as the target shows it with the model, and learns its new state. */
  observe(doc: ModelDoc, wire: WireDoc, withContent: boolean, at: number, verify: Verify): void {
    const C = checks.model;
    this.seeTimes(wire);
    const name = `${doc.alias} (document ${doc.id})`;
    const fixed = {
      document_id: doc.id,
      filename: doc.filename,
      content_type: KIND_FACTS[doc.kind].contentType,
      size_bytes: doc.size,
      attempts: doc.attempts,
    };
    const have = {
      document_id: wire.document_id,
      filename: wire.filename,
      content_type: wire.content_type,
      size_bytes: wire.size_bytes,
      attempts: wire.attempts,
    };
    verify(C.documents, JSON.stringify(have) === JSON.stringify(fixed), () => ({
      received: `${name}: ${show(have)}`,
      expected: show(fixed),
    }));
    verify(C.processedAt, instantOf(wire.created_at) === doc.createdAt, () => ({
      received: `${name}: created_at ${wire.created_at}`,
      expected: 'created_at as the upload gave it: it never changes',
    }));
    const before = doc.seen;
    const was = doc.mayProcess ? `${before.status}, its run may have ended since` : `${[...doc.outcomes].join(' or ')} (its run has ended)`;
    const blame = this.blame(doc);
    if (wire.status === 'processing') {
      verify(blame.check, doc.mayProcess, () => ({
        received: `${name} is processing`,
        expected: `${was}: only a retry starts a new run`,
        ...(blame.note ? { note: blame.note } : {}),
      }));
    } else {
      const fromList =
        before.status === 'processing' && !KIND_FACTS[doc.kind].outcomes.every((o) => doc.outcomes.has(o)) && doc.outcomes.size > 0;
      verify(
        fromList ? blame.check : C.documents,
        doc.outcomes.has(wire.status) && (before.status === 'processing' || before.status === wire.status),
        () => ({
          received: `${name} is ${wire.status}`,
          expected: `${before.status === 'processing' ? [...doc.outcomes].join(' or ') : before.status} (${doc.kind} file, last seen ${was})`,
          ...(fromList && blame.note ? { note: blame.note } : {}),
        }),
      );
    }
    const updated = instantOf(wire.updated_at)!;
    const processed = wire.processed_at === null ? null : instantOf(wire.processed_at)!;
    if (wire.status === 'processing') {
      verify(C.updatedAtMoves, updated >= before.updatedAt, () => ({
        received: `${name}: updated_at ${wire.updated_at}`,
        expected: 'not before the updated_at seen earlier: it never goes back',
      }));
    } else if (before.status === wire.status) {
      verify(C.processedAt, processed === before.processedAt, () => ({
        received: `${name}: processed_at ${wire.processed_at}`,
        expected: `the processed_at seen before: the run ended once, and nothing happened to ${doc.alias} since`,
      }));
      verify(C.updatedAtMoves, updated === before.updatedAt, () => ({
        received: `${name}: updated_at ${wire.updated_at}`,
        expected: `the updated_at seen before: nothing about ${doc.alias} changed since`,
      }));
    } else {
      verify(C.processedAt, processed !== null && processed >= doc.runStart, () => ({
        received: `${name} ${wire.status}: processed_at ${wire.processed_at}`,
        expected: 'when the run ended: not before it started (the updated_at of the upload or retry that started it)',
      }));
      verify(C.updatedAtMoves, processed !== null && updated >= processed, () => ({
        received: `${name} ${wire.status}: updated_at ${wire.updated_at}, processed_at ${wire.processed_at}`,
        expected: 'updated_at not before processed_at',
      }));
      verify(C.updatedAtMoves, updated > before.updatedAt || (updated === before.updatedAt && updated === processed), () => ({
        received: `${name} ${wire.status}: updated_at ${wire.updated_at}, as while it was processing`,
        expected: 'a later updated_at: the run ending changed the document',
      }));
    }
    const content = wire.content;
    if (withContent && wire.status === 'completed' && typeof content === 'string') {
      const words = KIND_FACTS[doc.kind].words(this.word);
      const text = lower(content);
      verify(C.documents, words.every((w) => text.includes(lower(w))) && (doc.kind === 'word' || !text.includes(lower(this.word))), () => ({
        received: `${name} content ${show(content, 200)}`,
        expected: words.length ? `text containing ${show(words)}` : `text without ${show(this.word)} (not in this file)`,
      }));
      if (before.status === 'completed' && before.content !== undefined) {
        verify(C.documents, content === before.content, () => ({
          received: `${name} content ${show(content, 200)}`,
          expected: `the text read before: ${show(before.content, 200)}`,
        }));
      }
    }
    if (wire.status === 'failed' && before.status === 'failed' && before.errorCode !== undefined) {
      verify(C.documents, wire.error?.code === before.errorCode, () => ({
        received: `${name} error ${show(wire.error)}`,
        expected: `error.code ${show(before.errorCode)} as read before`,
      }));
    }
    const keep = before.status === wire.status;
    doc.seen = {
      status: wire.status,
      updatedAt: updated,
      processedAt: processed,
      since: updated === before.updatedAt ? before.since : at,
      ...(withContent && wire.status === 'completed'
        ? { content: content ?? null }
        : keep && before.content !== undefined
          ? { content: before.content }
          : {}),
      ...(wire.status === 'failed' ? { errorCode: wire.error?.code ?? '' } : {}),
    };
    if (wire.status !== 'processing') {
      doc.mayProcess = false;
      doc.outcomes = new Set([wire.status]);
      delete doc.inferredFrom;
    }
  }
}

/** What makes two uploads "the same files in the same order with the same names". */
export function fingerprint(parts: PartSpec[]): string {
  return JSON.stringify(parts.map((p) => [p.filename, p.kind]));
}

function sameList(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A query in words. */
export function describeQuery(query: ListQuery): string {
  return `search ${show(query.search)}${query.statusFilter ? `, status_filter ${query.statusFilter}` : ''}`;
}
