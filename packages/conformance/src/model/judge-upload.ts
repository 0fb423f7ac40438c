import { checks } from '../checks/index.js';
import { show } from '../definitions/describe.js';
import { codeOf, type WireDocument } from '../transport/api.js';
import { KIND_FACTS } from './file-kinds.js';
import { judgeClock } from './judge-clock.js';
import { type Answer, fingerprint, type PartSpec, type ServiceModel, type Tenant, type UploadExpectation, type Verify } from './state.js';
import { instantOf } from './timestamps.js';

// The judge of an upload's answer: compares it with what the model expects and, when it agrees, has the
// model learn the new documents and what the Idempotency-Key now remembers.

/** Judges an upload's answer against `expected`; learns the new documents. */
export function judgeUpload(
  m: ServiceModel,
  tenant: Tenant,
  parts: PartSpec[],
  key: string | null,
  expected: UploadExpectation,
  answer: Answer,
  at: number,
  verify: Verify,
): void {
  const C = checks.model;
  const docs = (answer.body as { documents?: WireDocument[] } | undefined)?.documents ?? [];
  const ids = docs.map((d) => d.document_id);
  const got = `${answer.status}${codeOf(answer.body) ? ` ${codeOf(answer.body)}` : ''}${docs.length ? ` ids ${show(ids)}` : ''}`;
  const replayed = m.replayHeader ? answer.header(m.replayHeader) : null;
  const leak = m.othersReplay(tenant, parts, key);
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
    if (m.replayHeader) {
      verify(C.idempotencyLifecycle, replayed === 'true', () => ({
        received: `${m.replayHeader}: ${show(replayed)}`,
        expected: `${m.replayHeader}: true on a replay`,
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
          ? ` (Idempotency-Key ${show(key)} ${m.remembered.has(`${tenant}\n${key}`) ? 'was used for other files' : 'was only used by uploads that failed'})`
          : ''
      }`,
    }));
    if (key !== null && !m.remembered.has(`${tenant}\n${key}`)) m.failedKeys.add(`${tenant}\n${key}`);
    return;
  }
  // A new upload under a key is part of that key's lifecycle; one without a key is just new documents.
  const idempotency = key !== null ? C.idempotencyLifecycle : C.documents;
  const fresh = `202 with ${parts.length} new document(s)${
    expected.keyed ? ` (Idempotency-Key ${show(key)} was only used by uploads that failed, which are not remembered)` : ''
  }`;
  verify(idempotency, answer.status === 202, () => ({ received: got, expected: fresh }));
  if (m.replayHeader) {
    verify(idempotency, replayed === null, () => ({
      received: `${m.replayHeader}: ${show(replayed)}`,
      expected: `no ${m.replayHeader} header: this upload is not a replay`,
    }));
  }
  verify(C.documents, docs.length === parts.length, () => ({ received: got, expected: `${fresh}, one per part` }));
  const seen = new Map<number, string>();
  ids.forEach((id, i) => {
    const name = parts[i]?.filename ?? '';
    const finding = checks.races.distinctIds.judge!({ kind: 'new-id', id, name, earlier: seen.get(id) ?? m.allIds.get(id) });
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
    judgeClock(m, d, 'created_at', 'during', answer, verify, `part ${i + 1}, uploaded`);
    judgeClock(m, d, 'updated_at', 'during', answer, verify, `part ${i + 1}, uploaded`);
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
