import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import {
  contractFetch,
  fixture,
  type RunningReferenceServer,
  startReferenceServer,
  until,
} from '@docproc-kit/test-support/reference-server.js';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The lifecycle over HTTP: upload -> processing -> completed/failed, retry, 409, search in the
// extracted text; real extraction of the fixtures, every response checked against the contract.
const API = '/api/v1/documents';
let contract: Contract;
let server: RunningReferenceServer;
let call: ReturnType<typeof contractFetch>;

beforeAll(async () => {
  [server, contract] = await Promise.all([startReferenceServer({ processingDelayMs: 300 }), loadContract()]);
  call = contractFetch(server, contract);
});
afterAll(() => server?.close());

async function uploadFixtures(names: string[], target = call) {
  const body = new FormData();
  for (const name of names) body.append('files[]', await fixture(name), name);
  const res = await target('uploadDocuments', `${API}/upload_files`, { method: 'POST', body });
  expect(res.status).toBe(202);
  return res.body.documents as Array<{ document_id: number; filename: string }>;
}

async function finished(id: number, target = call) {
  let doc: { status: string } & Record<string, unknown> = { status: 'processing' };
  const ok = await until(
    async () => {
      doc = (await target('getDocument', `${API}/get_document/${id}`)).body;
      return doc.status !== 'processing';
    },
    60_000,
    50,
  );
  if (!ok) throw new Error(`document ${id} never finished`);
  return doc;
}

describe('upload -> processing -> completed or failed, on the fixtures', () => {
  let docs: Map<string, number>;
  beforeAll(async () => {
    const uploaded = await uploadFixtures(['text.pdf', 'multipage.pdf', 'scanned.png', 'photo.jpg', 'corrupt.pdf', 'truncated.png']);
    docs = new Map(uploaded.map((d) => [d.filename, d.document_id]));
  });

  it('a new document is processing for at least the configured delay', async () => {
    const [doc] = await uploadFixtures(['text.pdf']);
    const soon = await call('getDocument', `${API}/get_document/${doc!.document_id}`);
    expect(soon.body).toMatchObject({ status: 'processing', content: null, error: null, processed_at: null });
    const done = await finished(doc!.document_id);
    expect(Date.parse(done.processed_at as string) - Date.parse(done.created_at as string)).toBeGreaterThanOrEqual(300);
  }, 60_000);

  it.each([
    ['text.pdf', ['Harbor Logistics', 'PELICAN']],
    ['multipage.pdf', ['ALPHA', 'BRAVO', 'CHARLIE']],
    ['scanned.png', ['SOURDOUGH', 'Corner Bakery']],
    ['photo.jpg', ['MARIGOLD']],
  ])(
    '%s completes with its words in content',
    async (name, words) => {
      const doc = await finished(docs.get(name)!);
      expect(doc).toMatchObject({ status: 'completed', error: null, attempts: 1, processed_at: expect.any(String) });
      for (const word of words) expect(doc.content).toContain(word);
    },
    60_000,
  );

  it.each(['corrupt.pdf', 'truncated.png'])(
    '%s fails as unreadable_document, with no content',
    async (name) => {
      const doc = await finished(docs.get(name)!);
      expect(doc).toMatchObject({ status: 'failed', content: null, error: { code: 'unreadable_document', message: expect.any(String) } });
    },
    60_000,
  );

  it('search finds a word read by OCR from the scanned PNG, in any case', async () => {
    await finished(docs.get('scanned.png')!);
    for (const term of ['sourdough', 'SOURDOUGH', 'SourDough']) {
      const { body } = await call('listDocuments', `${API}/get_documents?search=${term}`);
      expect(body.documents.map((d: { document_id: number }) => d.document_id)).toContain(docs.get('scanned.png'));
      expect(body.documents.every((d: { content_type: string }) => d.content_type === 'image/png')).toBe(true);
    }
  }, 60_000);

  it('lists carry summaries: no content field', async () => {
    const { body } = await call('listDocuments', `${API}/get_documents?search=pelican`);
    expect(body.documents.length).toBeGreaterThan(0);
    expect(body.documents.every((d: object) => !('content' in d))).toBe(true);
  });
});

describe('a file without text', () => {
  it('completes with content "" (not null)', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([300, 200]);
    const body = new FormData();
    body.append('files[]', new Blob([Buffer.from(await doc.save())]), 'blank.pdf');
    const { body: uploaded } = await call('uploadDocuments', `${API}/upload_files`, { method: 'POST', body });
    expect(await finished(uploaded.documents[0].document_id)).toMatchObject({ status: 'completed', content: '' });
  }, 60_000);
});

describe('retry', () => {
  it('re-runs a failed document on its stored bytes: processing, attempts 2, failed again for the same reason', async () => {
    const [doc] = await uploadFixtures(['corrupt.pdf']);
    const first = await finished(doc!.document_id);
    const retried = await call('retryDocument', `${API}/retry_documents/${doc!.document_id}`, { method: 'POST' });
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ status: 'processing', attempts: 2, error: null, content: null, processed_at: null });
    const second = await finished(doc!.document_id);
    expect(second).toMatchObject({ status: 'failed', attempts: 2, error: first.error });
  }, 60_000);

  it('re-runs a completed document, refusing a second retry while it runs (409), then completes with the same text', async () => {
    const [doc] = await uploadFixtures(['text.pdf']);
    const first = await finished(doc!.document_id);
    expect((await call('retryDocument', `${API}/retry_documents/${doc!.document_id}`, { method: 'POST' })).status).toBe(202);
    const busy = await call('retryDocument', `${API}/retry_documents/${doc!.document_id}`, { method: 'POST' });
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ code: 'document_busy', detail: expect.stringContaining(String(doc!.document_id)) });
    const during = await call('listDocuments', `${API}/get_documents?search=pelican&status_filter=completed`);
    expect(during.body.documents.map((d: { document_id: number }) => d.document_id)).not.toContain(doc!.document_id);
    const second = await finished(doc!.document_id);
    expect(second).toMatchObject({ status: 'completed', attempts: 2, content: first.content });
    expect(Date.parse(second.processed_at as string)).toBeGreaterThan(Date.parse(first.processed_at as string));
  }, 60_000);
});

describe('simulated failures', () => {
  it('--failure-rate with a --seed fails the same runs every time, with processing_error', async () => {
    const outcomes: string[][] = [];
    for (let round = 0; round < 2; round++) {
      const seeded = await startReferenceServer({ processingDelayMs: 0, failureRate: 0.5, seed: 7, concurrency: 1 });
      try {
        const seededCall = contractFetch(seeded, contract);
        const body = new FormData();
        for (let i = 0; i < 12; i++) body.append('files[]', await fixture('text.pdf'), `run-${i}.pdf`);
        const { body: uploaded } = await seededCall('uploadDocuments', `${API}/upload_files`, { method: 'POST', body });
        const docs = [];
        for (const d of uploaded.documents) docs.push(await finished(d.document_id, seededCall));
        outcomes.push(docs.map((d) => (d.status === 'failed' ? (d.error as { code: string }).code : d.status)));
      } finally {
        await seeded.close();
      }
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(new Set(outcomes[0])).toEqual(new Set(['completed', 'processing_error']));
  }, 60_000);
});

describe('many documents at once', () => {
  it('waiting out their processing delay together print no warning (no "memory leak" line in the server log)', async () => {
    // Its own server: node warns once per signal, so an earlier test's burst could hide this one's. The
    // delay outlasts the extractions, so all twelve wait at once (as with the default delay, 1.5 s).
    const busy = await startReferenceServer({ processingDelayMs: 1_500 });
    const busyCall = contractFetch(busy, contract);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const body = new FormData();
      for (let i = 0; i < 12; i++) body.append('files[]', await fixture('text.pdf'), `part-${i}.pdf`);
      const uploaded = await busyCall('uploadDocuments', `${API}/upload_files`, { method: 'POST', body });
      const ids = (uploaded.body.documents as Array<{ document_id: number }>).map((d) => d.document_id);
      const done = await Promise.all(ids.map((id) => finished(id, busyCall)));
      expect(done.map((d) => d.status)).toEqual(ids.map(() => 'completed'));
    } finally {
      process.off('warning', onWarning);
      await busy.close();
    }
    expect(warnings).toEqual([]);
  }, 60_000);
});
