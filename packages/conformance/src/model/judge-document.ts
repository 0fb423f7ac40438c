import { checks } from '../checks/index.js';
import type { KnownState, KnownStateObservation } from '../checks/model-known-state.js';
import type { TimesSeen } from '../checks/model-times.js';
import type { Check } from '../definitions/check.js';
import { show } from '../definitions/describe.js';
import { codeOf, type WireDocument } from '../transport/api.js';
import { KIND_FACTS } from './file-kinds.js';
import { judgeClock, judgeClockNotAfter } from './judge-clock.js';
import type { Answer, ModelDoc, ModelJudge, ServiceModel, Tenant } from './state.js';
import { instantOf } from './timestamps.js';

// The model's side of one document's answers (a read, a retry, a document seen in a list): what the model
// knows of the document goes, with what the target shows, to the checks' judges, which throw at the first
// difference; when the answer agrees, the model learns the document's new state.

/** Judges a read of `doc` by `tenant`. */
export function judgeGet(m: ServiceModel, tenant: Tenant, doc: ModelDoc, answer: Answer, at: number, judge: ModelJudge): void {
  if (doc.tenant !== tenant) {
    hidden(doc, answer, judge, 'read');
    return;
  }
  judge.check(checks.model.documents, { kind: 'read', alias: doc.alias, status: answer.status, code: codeOf(answer.body) });
  judgeClockNotAfter(m, answer.body as WireDocument, answer, judge, doc.alias);
  observe(m, doc, answer.body as WireDocument, true, at, judge);
}

/** Judges a retry of `doc` by `tenant`: a 202 for a finished run, a 409 while one may be going on. */
export function judgeRetry(m: ServiceModel, tenant: Tenant, doc: ModelDoc, answer: Answer, at: number, judge: ModelJudge): void {
  const C = checks.model;
  if (doc.tenant !== tenant) {
    hidden(doc, answer, judge, 'retried');
    return;
  }
  const status = answer.status;
  const code = codeOf(answer.body);
  if (!doc.mayProcess) {
    judge.check(blamed(doc), { kind: 'retry-finished', ...known(doc), status, code });
  } else {
    judge.check(C.documents, { kind: 'retry', alias: doc.alias, status, code });
    // Busy: the run was still going when the retry arrived; nothing changed.
    if (answer.status === 409) return;
  }
  const d = answer.body as WireDocument;
  m.seeTimes(d);
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
  judge.check(C.documents, { kind: 'fields', want, have });
  const name = { alias: doc.alias, id: doc.id };
  judge.check(C.processedAt, {
    kind: 'created-at',
    on: 'retry',
    doc: name,
    createdAt: d.created_at,
    created: instantOf(d.created_at),
    uploaded: doc.createdAt,
  });
  const updated = instantOf(d.updated_at)!;
  judge.check(C.updatedAtMoves, { kind: 'retried', alias: doc.alias, updatedAt: d.updated_at, updated, before: doc.seen.updatedAt });
  judgeClock(m, d, 'updated_at', 'during', answer, judge, `${doc.alias}, retried`);
  doc.attempts += 1;
  doc.mayProcess = true;
  doc.outcomes = new Set(KIND_FACTS[doc.kind].outcomes);
  doc.runStart = updated;
  doc.seen = { status: 'processing', updatedAt: updated, processedAt: null, since: at };
  delete doc.inferredFrom;
}

/** Another tenant's document: a 404 not_found, on read and on retry. */
function hidden(doc: ModelDoc, answer: Answer, judge: ModelJudge, what: string): void {
  // A 200 with some other document is a wrong answer, not a leak of this one.
  const shown = answer.body as Partial<WireDocument> | undefined;
  judge.check(checks.model.documents, {
    kind: 'other-tenant',
    doc: { alias: doc.alias, id: doc.id },
    status: answer.status,
    shown: { id: shown?.document_id, filename: shown?.filename },
  });
  judge.verify(checks.tenancy.documentHidden, answer.status === 404 && codeOf(answer.body) === 'not_found', () => ({
    received: `${answer.status} ${show(codeOf(answer.body) ?? (answer.body as WireDocument | undefined)?.filename ?? '')}`,
    expected: `404 not_found: ${doc.alias} belongs to the other key and cannot be ${what}`,
  }));
}

/** The check to blame when an answer about `doc` contradicts what the model knows: the list it inferred that from, if any. */
function blamed(doc: ModelDoc): Check<KnownStateObservation> {
  return doc.inferredFrom ? checks.model.lists : checks.model.documents;
}

/** What the model knows of `doc`'s current run, as the checks are shown it. */
function known(doc: ModelDoc): KnownState {
  return {
    doc: { alias: doc.alias, id: doc.id },
    fileKind: doc.kind,
    lastSeen: doc.seen.status,
    mayProcess: doc.mayProcess,
    outcomes: [...doc.outcomes],
    ...(doc.inferredFrom ? { inferredFrom: doc.inferredFrom } : {}),
  };
}

/** Compares one document as the target shows it with the model, and learns its new state. */
export function observe(m: ServiceModel, doc: ModelDoc, wire: WireDocument, withContent: boolean, at: number, judge: ModelJudge): void {
  const C = checks.model;
  m.seeTimes(wire);
  const name = { alias: doc.alias, id: doc.id };
  const label = `${doc.alias} (document ${doc.id})`;
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
  judge.check(C.documents, { kind: 'fields', label, want: fixed, have });
  judge.check(C.processedAt, {
    kind: 'created-at',
    on: 'read',
    doc: name,
    createdAt: wire.created_at,
    created: instantOf(wire.created_at),
    uploaded: doc.createdAt,
  });
  const before = doc.seen;
  if (wire.status === 'processing') {
    judge.check(blamed(doc), { kind: 'status-shown', ...known(doc), status: wire.status, blame: true });
  } else {
    // The outcomes narrowed by a list (some of the kind's, not all) are the list's word, not the model's own.
    const fromList =
      before.status === 'processing' && !KIND_FACTS[doc.kind].outcomes.every((o) => doc.outcomes.has(o)) && doc.outcomes.size > 0;
    judge.check(fromList ? blamed(doc) : C.documents, { kind: 'status-shown', ...known(doc), status: wire.status, blame: fromList });
  }
  const updated = instantOf(wire.updated_at)!;
  const processed = wire.processed_at === null ? null : instantOf(wire.processed_at)!;
  const times: TimesSeen = {
    kind: 'seen',
    doc: name,
    transition: wire.status === 'processing' ? 'processing' : before.status === wire.status ? 'unchanged' : 'ended',
    status: wire.status,
    updatedAt: wire.updated_at,
    updated,
    processedAt: wire.processed_at,
    processed,
    before: { updated: before.updatedAt, processed: before.processedAt },
    runStart: doc.runStart,
  };
  judge.check(C.processedAt, times);
  judge.check(C.updatedAtMoves, times);
  const content = wire.content;
  if (withContent && wire.status === 'completed' && typeof content === 'string') {
    const words = KIND_FACTS[doc.kind].words(m.word);
    judge.check(C.documents, { kind: 'text', name: label, content, words, word: m.word, lacksWord: doc.kind !== 'word' });
    if (before.status === 'completed' && before.content !== undefined)
      judge.check(C.documents, { kind: 'same-text', name: label, content, before: before.content });
  }
  if (wire.status === 'failed' && before.status === 'failed' && before.errorCode !== undefined)
    judge.check(C.documents, { kind: 'same-error', name: label, error: wire.error, before: before.errorCode });
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
