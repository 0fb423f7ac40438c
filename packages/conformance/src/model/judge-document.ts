import { type Check, checks } from '../checks/index.js';
import { show } from '../definitions/describe.js';
import { codeOf, type WireDocument } from '../transport/api.js';
import { KIND_FACTS } from './file-kinds.js';
import { judgeClock, judgeClockNotAfter } from './judge-clock.js';
import type { Answer, ModelDoc, ServiceModel, Tenant, Verify } from './state.js';
import { instantOf } from './timestamps.js';

// The judges of one document's answers (a read, a retry, a document seen in a list): each compares what the
// target shows with what the model knows through `verify`, which throws at the first difference, and when
// the answer agrees has the model learn the document's new state.

const lower = (s: string) => s.toLowerCase();

/** Judges a read of `doc` by `tenant`. */
export function judgeGet(m: ServiceModel, tenant: Tenant, doc: ModelDoc, answer: Answer, at: number, verify: Verify): void {
  if (doc.tenant !== tenant) {
    hidden(doc, answer, verify, 'read');
    return;
  }
  verify(checks.model.documents, answer.status === 200, () => ({
    received: `${answer.status} ${show(codeOf(answer.body) ?? '')}`,
    expected: `200: ${doc.alias} belongs to this key`,
  }));
  judgeClockNotAfter(m, answer.body as WireDocument, answer, verify, doc.alias);
  observe(m, doc, answer.body as WireDocument, true, at, verify);
}

/** Judges a retry of `doc` by `tenant`: a 202 for a finished run, a 409 while one may be going on. */
export function judgeRetry(m: ServiceModel, tenant: Tenant, doc: ModelDoc, answer: Answer, at: number, verify: Verify): void {
  const C = checks.model;
  if (doc.tenant !== tenant) {
    hidden(doc, answer, verify, 'retried');
    return;
  }
  const got = `${answer.status} ${show(codeOf(answer.body) ?? '')}`;
  if (!doc.mayProcess) {
    const blame = blameFor(doc);
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
  judgeClock(m, d, 'updated_at', 'during', answer, verify, `${doc.alias}, retried`);
  doc.attempts += 1;
  doc.mayProcess = true;
  doc.outcomes = new Set(KIND_FACTS[doc.kind].outcomes);
  doc.runStart = updated;
  doc.seen = { status: 'processing', updatedAt: updated, processedAt: null, since: at };
  delete doc.inferredFrom;
}

/** Another tenant's document: a 404 not_found, on read and on retry. */
function hidden(doc: ModelDoc, answer: Answer, verify: Verify, what: string): void {
  // A 200 with some other document is a wrong answer, not a leak of this one.
  const other = (answer.body as Partial<WireDocument> | undefined)?.document_id;
  verify(checks.model.documents, answer.status !== 200 || other === undefined || other === doc.id, () => ({
    received: `${answer.status}: document ${other} (${show((answer.body as Partial<WireDocument>).filename)})`,
    expected: `404 not_found: ${doc.alias} (document ${doc.id}) belongs to the other key, and no other document was asked for`,
  }));
  verify(checks.tenancy.documentHidden, answer.status === 404 && codeOf(answer.body) === 'not_found', () => ({
    received: `${answer.status} ${show(codeOf(answer.body) ?? (answer.body as WireDocument | undefined)?.filename ?? '')}`,
    expected: `404 not_found: ${doc.alias} belongs to the other key and cannot be ${what}`,
  }));
}

/** The check to blame when an answer about `doc` contradicts what the model knows: the list it inferred that from, if any. */
function blameFor(doc: ModelDoc): { check: Check; note?: string } {
  return doc.inferredFrom
    ? {
        check: checks.model.lists,
        note: `what the model knew came from an earlier list (${doc.inferredFrom}): that list and this answer cannot both be right`,
      }
    : { check: checks.model.documents };
}

/** Compares one document as the target shows it with the model, and learns its new state. */
export function observe(m: ServiceModel, doc: ModelDoc, wire: WireDocument, withContent: boolean, at: number, verify: Verify): void {
  const C = checks.model;
  m.seeTimes(wire);
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
  const blame = blameFor(doc);
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
    verify(C.processedAt, processed === null, () => ({
      received: `${name} processing: processed_at ${wire.processed_at}`,
      expected: 'processed_at null while processing: the run has not ended',
    }));
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
    const words = KIND_FACTS[doc.kind].words(m.word);
    const text = lower(content);
    verify(C.documents, words.every((w) => text.includes(lower(w))) && (doc.kind === 'word' || !text.includes(lower(m.word))), () => ({
      received: `${name} content ${show(content, 200)}`,
      expected: words.length ? `text containing ${show(words)}` : `text without ${show(m.word)} (not in this file)`,
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
