import { type Check, checks } from '../checks/index.js';
import type { UploadObservation } from '../checks/model-uploads.js';
import { show } from '../definitions/describe.js';
import { codeOf, type WireDocument } from '../transport/api.js';
import { KIND_FACTS } from './file-kinds.js';
import { judgeClock } from './judge-clock.js';
import {
  type Answer,
  fingerprint,
  type ModelJudge,
  type PartSpec,
  type ServiceModel,
  type Tenant,
  type UploadExpectation,
} from './state.js';
import { instantOf } from './timestamps.js';

// The model's side of an upload's answer: what the model expects of it goes, with the answer, to the checks'
// judges; when it agrees, the model learns the new documents and what the Idempotency-Key now remembers.

/** Judges an upload's answer against `expected`; learns the new documents. */
export function judgeUpload(
  m: ServiceModel,
  tenant: Tenant,
  parts: PartSpec[],
  key: string | null,
  expected: UploadExpectation,
  answer: Answer,
  at: number,
  judge: ModelJudge,
): void {
  const C = checks.model;
  const docs = (answer.body as { documents?: WireDocument[] } | undefined)?.documents ?? [];
  const ids = docs.map((d) => d.document_id);
  const answered = { status: answer.status, code: codeOf(answer.body), ids };
  const replayed = m.replayHeader ? answer.header(m.replayHeader) : null;
  const leak = m.othersReplay(tenant, parts, key);
  if (leak && answer.status === 202 && sameList(ids, leak)) {
    judge.verify(checks.tenancy.idempotencyKeyScoped, false, () => ({
      received: `202 replaying the other tenant's documents ${show(ids)}`,
      expected: `new documents: Idempotency-Key ${show(key)} was used by the other API key, not by this one`,
    }));
  }
  if (expected.kind === 'replay') {
    judge.check(C.idempotencyLifecycle, { kind: 'replay', answer: answered, key: expected.key, ids: expected.ids });
    if (m.replayHeader) judge.check(C.idempotencyLifecycle, { kind: 'replay-header', header: m.replayHeader, value: replayed });
    judge.check(C.idempotencyLifecycle, {
      kind: 'replay-names',
      filenames: docs.map((d) => d.filename),
      expected: parts.map((p) => p.filename),
    });
    return;
  }
  if (expected.kind === 'refused') {
    const remembered = m.remembered.has(`${tenant}\n${key}`);
    const refusedBy: Check<UploadObservation> = expected.keyed ? C.idempotencyLifecycle : C.documents;
    judge.check(refusedBy, {
      kind: 'refused',
      answer: answered,
      allowed: expected.answers,
      key,
      keyed: expected.keyed,
      remembered,
    });
    if (key !== null && !remembered) m.failedKeys.add(`${tenant}\n${key}`);
    return;
  }
  // A new upload under a key is part of that key's lifecycle; one without a key is just new documents.
  const idempotency: Check<UploadObservation> = key !== null ? C.idempotencyLifecycle : C.documents;
  const fresh = { answer: answered, parts: parts.length, key, keyed: expected.keyed };
  judge.check(idempotency, { kind: 'created', ...fresh });
  if (m.replayHeader) judge.check(idempotency, { kind: 'not-replayed', header: m.replayHeader, value: replayed });
  judge.check(C.documents, { kind: 'one-per-part', ...fresh });
  const seen = new Map<number, string>();
  ids.forEach((id, i) => {
    const name = parts[i]?.filename ?? '';
    judge.check(checks.races.distinctIds, { kind: 'new-id', id, name, earlier: seen.get(id) ?? m.allIds.get(id) });
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
    judge.check(C.documents, { kind: 'fields', label: `part ${i + 1}`, labelExpected: true, want, have });
    judge.check(C.updatedAtMoves, {
      kind: 'uploaded',
      part: i + 1,
      createdAt: d.created_at,
      created: instantOf(d.created_at)!,
      updatedAt: d.updated_at,
      updated: instantOf(d.updated_at)!,
    });
    judgeClock(m, d, 'created_at', 'during', answer, judge, `part ${i + 1}, uploaded`);
    judgeClock(m, d, 'updated_at', 'during', answer, judge, `part ${i + 1}, uploaded`);
  });
  docs.forEach((d, i) => {
    const part = parts[i]!;
    const updated = instantOf(d.updated_at)!;
    m.seeTimes(d);
    m.allIds.set(d.document_id, `${show(part.filename)} (${tenant === 'primary' ? 'the first' : 'the second'} key)`);
    m.docs.push({
      alias: `D${m.docs.length + 1}`,
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
  if (key !== null) m.remembered.set(`${tenant}\n${key}`, { fingerprint: fingerprint(parts), ids });
}

function sameList(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
