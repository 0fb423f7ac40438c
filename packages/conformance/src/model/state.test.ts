import { describe, expect, it } from 'vitest';
import type { AnyCheck } from '../checks/index.js';
import type { WireDocument } from '../transport/api.js';
import { judgeGet, judgeRetry } from './judge-document.js';
import { judgeList } from './judge-list.js';
import { judgeUpload } from './judge-upload.js';
import { type Answer, type ModelJudge, type PartSpec, ServiceModel } from './state.js';

// The model's verdicts on hand-made answers: each answer a conforming server may give passes, each that
// breaks a sentence of the contract fails the check that names it.
const WORD = 'zqmodelword';
const PDF: PartSpec = { filename: 'tok-u1-1-a.pdf', kind: 'word', size: 100 };
const T0 = '2024-05-02T09:14:03.120Z';
const T1 = '2024-05-02T09:14:03.320Z';
const T2 = '2024-05-02T09:14:04.000Z';

class Verdict extends Error {
  constructor(readonly check: string) {
    super(check);
  }
}
const verify: ModelJudge = {
  check: (check, observation) => {
    if (check.judge!(observation)) throw new Verdict(check.id);
  },
  verify: (check: AnyCheck, holds) => {
    if (!holds) throw new Verdict(check.id);
  },
};
/** The check `act` fails, or 'pass'. */
function verdictOf(act: () => void): string {
  try {
    act();
    return 'pass';
  } catch (error) {
    if (error instanceof Verdict) return error.check;
    throw error;
  }
}

const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  body,
  header: (name) => headers[name.toLowerCase()] ?? null,
});
const problem = (status: number, code: string) => answer(status, { type: 'about:blank', title: 'x', status, detail: 'x', code });
function doc(edit: Partial<WireDocument> = {}): WireDocument {
  return {
    document_id: 7,
    filename: PDF.filename,
    content_type: 'application/pdf',
    size_bytes: PDF.size,
    status: 'processing',
    attempts: 1,
    error: null,
    content: null,
    created_at: T0,
    updated_at: T0,
    processed_at: null,
    ...edit,
  };
}
const completed = (edit: Partial<WireDocument> = {}) =>
  doc({ status: 'completed', content: `docproc\nword ${WORD}`, processed_at: T1, updated_at: T1, ...edit });

/** A model with document 7 (D1) just uploaded by the first key. */
function uploadedOne(): ServiceModel {
  const model = new ServiceModel(WORD, new Map(), 'Idempotent-Replayed');
  const expected = model.expectUpload('primary', [PDF], null);
  judgeUpload(model, 'primary', [PDF], null, expected, answer(202, { documents: [doc()] }), 0, verify);
  return model;
}

describe('the model judges reads of a document', () => {
  it.each([
    { case: 'still processing', read: doc(), verdict: 'pass' },
    { case: 'completed with its word', read: completed(), verdict: 'pass' },
    {
      case: 'failed',
      read: doc({ status: 'failed', error: { code: 'processing_error', message: 'x' }, processed_at: T1, updated_at: T1 }),
      verdict: 'pass',
    },
    { case: 'completed in the millisecond it was uploaded', read: completed({ processed_at: T0, updated_at: T0 }), verdict: 'pass' },
    { case: 'completed with updated_at frozen at the upload', read: completed({ updated_at: T0 }), verdict: 'lifecycle.updated-at-moves' },
    {
      case: 'completed before its run started',
      read: completed({ processed_at: '2024-05-02T09:14:03.000Z' }),
      verdict: 'lifecycle.processed-at',
    },
    { case: 'completed without the word in its file', read: completed({ content: 'docproc' }), verdict: 'model.documents' },
    { case: 'with another size', read: doc({ size_bytes: 101 }), verdict: 'model.documents' },
    { case: 'with created_at changed', read: doc({ created_at: T1, updated_at: T1 }), verdict: 'lifecycle.processed-at' },
  ])('$case: $verdict', ({ read, verdict }) => {
    const model = uploadedOne();
    expect(verdictOf(() => judgeGet(model, 'primary', model.docs[0]!, answer(200, read), 1, verify))).toBe(verdict);
  });

  it.each([
    { case: 'read again unchanged', again: completed(), verdict: 'pass' },
    { case: 'processing again without a retry', again: doc({ updated_at: T2 }), verdict: 'model.documents' },
    { case: 'with processed_at moved', again: completed({ processed_at: T2, updated_at: T2 }), verdict: 'lifecycle.processed-at' },
    { case: 'with updated_at moved though nothing changed', again: completed({ updated_at: T2 }), verdict: 'lifecycle.updated-at-moves' },
    {
      case: 'failed after it completed',
      again: doc({ status: 'failed', error: { code: 'processing_error', message: 'x' }, processed_at: T1, updated_at: T1 }),
      verdict: 'model.documents',
    },
  ])('a completed document $case: $verdict', ({ again, verdict }) => {
    const model = uploadedOne();
    judgeGet(model, 'primary', model.docs[0]!, answer(200, completed()), 1, verify);
    expect(verdictOf(() => judgeGet(model, 'primary', model.docs[0]!, answer(200, again), 2, verify))).toBe(verdict);
  });

  it('a document processing with processed_at set fails lifecycle.processed-at', () => {
    const model = uploadedOne();
    expect(verdictOf(() => judgeGet(model, 'primary', model.docs[0]!, answer(200, doc({ processed_at: T1 })), 1, verify))).toBe(
      'lifecycle.processed-at',
    );
  });

  describe('a run read while it goes on, after the target showed a later instant (another upload at T1)', () => {
    const PLAIN: PartSpec = { filename: 'tok-u2-1-a.pdf', kind: 'word', size: 100 };
    function readRunning(): ServiceModel {
      const model = uploadedOne();
      const second = model.expectUpload('primary', [PLAIN], null);
      const d2 = doc({ document_id: 8, filename: PLAIN.filename, created_at: T1, updated_at: T1 });
      judgeUpload(model, 'primary', [PLAIN], null, second, answer(202, { documents: [d2] }), 5, verify);
      const sent = Date.parse(T1) + 100;
      judgeGet(model, 'primary', model.docs[0]!, { ...answer(200, doc()), window: { sent, received: sent + 1 } }, sent + 1, verify);
      return model;
    }
    // A service stamps the run's end, then writes it: a read in between still shows the run going on.
    it.each([
      { case: 'ended at that instant or later', processed: T1 },
      { case: 'ended before it, stamped before the read and written after', processed: T0 },
    ])('$case: pass', ({ processed }) => {
      const model = readRunning();
      const ended = completed({ processed_at: processed, updated_at: T2 });
      expect(verdictOf(() => judgeGet(model, 'primary', model.docs[0]!, answer(200, ended), 20, verify))).toBe('pass');
    });
  });

  it("another tenant's document is a 404 not_found, else tenancy.document-hidden", () => {
    const model = uploadedOne();
    expect(verdictOf(() => judgeGet(model, 'secondary', model.docs[0]!, problem(404, 'not_found'), 1, verify))).toBe('pass');
    expect(verdictOf(() => judgeGet(model, 'secondary', model.docs[0]!, answer(200, doc()), 1, verify))).toBe('tenancy.document-hidden');
  });
});

describe('the model judges retries', () => {
  const restarted = doc({ attempts: 2, updated_at: T2 });
  it.each([
    { case: 'a processing document: busy', before: undefined, retry: problem(409, 'document_busy'), verdict: 'pass' },
    { case: 'a processing document whose run just ended: a new run', before: undefined, retry: answer(202, restarted), verdict: 'pass' },
    { case: 'a completed document: a new run', before: completed(), retry: answer(202, restarted), verdict: 'pass' },
    { case: 'a completed document: busy', before: completed(), retry: problem(409, 'document_busy'), verdict: 'model.documents' },
    {
      case: 'a completed document: attempts unchanged',
      before: completed(),
      retry: answer(202, doc({ updated_at: T2 })),
      verdict: 'model.documents',
    },
    {
      case: 'a completed document: updated_at unchanged',
      before: completed(),
      retry: answer(202, doc({ attempts: 2, updated_at: T1 })),
      verdict: 'lifecycle.updated-at-moves',
    },
  ])('$case: $verdict', ({ before, retry, verdict }) => {
    const model = uploadedOne();
    if (before) judgeGet(model, 'primary', model.docs[0]!, answer(200, before), 1, verify);
    expect(verdictOf(() => judgeRetry(model, 'primary', model.docs[0]!, retry, 2, verify))).toBe(verdict);
  });
});

describe('the model judges lists', () => {
  const query = { page: 1, limit: 20, search: 'tok', statusFilter: 'processing' as const };
  const list = (documents: WireDocument[], total = documents.length) =>
    answer(200, {
      documents: documents.map(({ content: _, ...d }) => d),
      pagination: { page: 1, limit: 20, total, total_pages: Math.ceil(total / 20) },
    });

  it('takes a processing document missing from a processing list as finished, and blames that list if it reads processing later', () => {
    const model = uploadedOne();
    expect(verdictOf(() => judgeList(model, 'primary', query, list([]), 1, verify))).toBe('pass');
    expect(model.docs[0]!.mayProcess).toBe(false);
    expect(verdictOf(() => judgeGet(model, 'primary', model.docs[0]!, answer(200, doc()), 2, verify))).toBe('model.lists');
  });

  it.each([
    { case: 'the processing document listed', documents: [doc()], verdict: 'pass' },
    { case: 'a completed document in a processing list', documents: [completed()], verdict: 'model.lists' },
    { case: 'a total that counts one too many', documents: [doc()], total: 2, verdict: 'model.lists' },
    { case: 'a document nobody uploaded', documents: [doc({ document_id: 99 })], verdict: 'model.lists' },
  ])('$case: $verdict', ({ documents, total, verdict }) => {
    const model = uploadedOne();
    expect(verdictOf(() => judgeList(model, 'primary', query, list(documents, total), 1, verify))).toBe(verdict);
  });

  it("another tenant's document in a list is tenancy.list-hidden", () => {
    const model = uploadedOne();
    expect(verdictOf(() => judgeList(model, 'secondary', query, list([doc()]), 1, verify))).toBe('tenancy.list-hidden');
  });
});

describe('the model judges uploads under an Idempotency-Key', () => {
  const bad: PartSpec = { filename: 'tok-u2-1-notes.pdf', kind: 'not-a-document', size: 10 };
  const other: PartSpec = { filename: 'tok-u3-1-b.pdf', kind: 'plain', size: 90 };
  const created = (parts: PartSpec[], id: number) =>
    answer(202, { documents: parts.map((p, i) => doc({ document_id: id + i, filename: p.filename, size_bytes: p.size })) });

  function upload(model: ServiceModel, tenant: 'primary' | 'secondary', parts: PartSpec[], key: string | null, got: Answer): string {
    const expected = model.expectUpload(tenant, parts, key);
    return verdictOf(() => judgeUpload(model, tenant, parts, key, expected, got, 0, verify));
  }

  it('replays a repeat, refuses other files, forgets a failed upload, and keeps keys per API key', () => {
    const model = new ServiceModel(WORD, new Map(), 'Idempotent-Replayed');
    expect(upload(model, 'primary', [bad], 'k', problem(415, 'unsupported_media_type'))).toBe('pass');
    expect(upload(model, 'primary', [PDF], 'k', created([PDF], 7))).toBe('pass');
    expect(upload(model, 'primary', [PDF], 'k', answer(202, { documents: [doc()] }, { 'idempotent-replayed': 'true' }))).toBe('pass');
    expect(upload(model, 'primary', [other], 'k', problem(409, 'idempotency_key_reused'))).toBe('pass');
    expect(upload(model, 'secondary', [PDF], 'k', created([PDF], 8))).toBe('pass');
  });

  it.each([
    {
      case: 'a failed upload remembered',
      first: problem(415, 'unsupported_media_type'),
      second: problem(409, 'idempotency_key_reused'),
      verdict: 'upload.idempotency-lifecycle',
    },
    {
      case: 'a repeat that makes new documents',
      first: created([PDF], 7),
      second: created([PDF], 8),
      verdict: 'upload.idempotency-lifecycle',
    },
    { case: 'a replay without its header', first: created([PDF], 7), second: created([PDF], 7), verdict: 'upload.idempotency-lifecycle' },
  ])('$case: $verdict', ({ first, second, verdict }) => {
    const model = new ServiceModel(WORD, new Map(), 'Idempotent-Replayed');
    upload(model, 'primary', first.status === 415 ? [bad] : [PDF], 'k', first);
    expect(upload(model, 'primary', [PDF], 'k', second)).toBe(verdict);
  });

  it("another API key replaying the first key's documents is tenancy.idempotency-key-scoped", () => {
    const model = new ServiceModel(WORD, new Map(), 'Idempotent-Replayed');
    upload(model, 'primary', [PDF], 'k', created([PDF], 7));
    expect(upload(model, 'secondary', [PDF], 'k', answer(202, { documents: [doc()] }, { 'idempotent-replayed': 'true' }))).toBe(
      'tenancy.idempotency-key-scoped',
    );
  });

  it('an id handed out before is upload.distinct-ids', () => {
    const model = new ServiceModel(WORD, new Map(), 'Idempotent-Replayed');
    upload(model, 'primary', [PDF], null, created([PDF], 7));
    expect(upload(model, 'secondary', [other], null, created([other], 7))).toBe('upload.distinct-ids');
  });
});
