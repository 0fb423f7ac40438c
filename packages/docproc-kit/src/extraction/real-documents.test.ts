import { loadContract } from '@docproc-kit/contract/load-contract.js';
import {
  contractFetch,
  fixture,
  type RunningReferenceServer,
  startReferenceServer,
  until,
} from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Documents as scanners, phones and other PDF producers make them (fixtures from
// packages/contract/scripts/make-real-fixtures.sh), uploaded over HTTP to the real server: each completes with its
// words in `content`, and search finds it. Timeouts allow for OCR on a busy 2-core machine.
const API = '/api/v1/documents';
let server: RunningReferenceServer;
let call: ReturnType<typeof contractFetch>;

beforeAll(async () => {
  const [started, contract] = await Promise.all([startReferenceServer({ processingDelayMs: 0 }), loadContract()]);
  server = started;
  call = contractFetch(server, contract);
});
afterAll(() => server?.close());

async function upload(names: string[]): Promise<Map<string, number>> {
  const body = new FormData();
  for (const name of names) body.append('files[]', await fixture(name), name);
  const res = await call('uploadDocuments', `${API}/upload_files`, { method: 'POST', body });
  expect(res.status).toBe(202);
  return new Map(res.body.documents.map((d: { filename: string; document_id: number }) => [d.filename, d.document_id]));
}

async function finished(id: number) {
  let doc: Record<string, unknown> = {};
  const done = await until(
    async () => {
      doc = (await call('getDocument', `${API}/get_document/${id}`)).body;
      return doc.status !== 'processing';
    },
    90_000,
    100,
  );
  if (!done) throw new Error(`document ${id} never finished`);
  return doc;
}

async function searchIds(term: string): Promise<number[]> {
  const { body } = await call('listDocuments', `${API}/get_documents?search=${encodeURIComponent(term)}`);
  return body.documents.map((d: { document_id: number }) => d.document_id);
}

describe('real documents over HTTP', () => {
  let ids: Map<string, number>;
  beforeAll(async () => {
    ids = await upload(['scan-jpeg.pdf', 'scan-g4.pdf', 'cjk-nonembedded.pdf', 'photo-exif-le.jpg', 'photo-exif-be.jpg']);
  }, 30_000);

  it.each([
    ['scan-jpeg.pdf', 'a JPEG page in a PDF, no text layer, is read by OCR', ['Warehouse receipt', 'HALIBUT'], 'halibut'],
    ['scan-g4.pdf', 'both pages of a CCITT G4 office scan are read by OCR, in order', ['KESTREL', 'OSPREY'], 'osprey'],
    [
      'cjk-nonembedded.pdf',
      'Japanese in a font that is not embedded is read with the CMaps shipped from npm',
      ['請求書', '丸の内商事', 'WISTERIA'],
      '千代田区',
    ],
    [
      'photo-exif-le.jpg',
      'a sideways phone photo with little-endian EXIF is turned upright before OCR',
      ['Shopping list', 'PERSIMMON'],
      'persimmon',
    ],
    [
      'photo-exif-be.jpg',
      'a sideways phone photo with big-endian EXIF is turned upright before OCR',
      ['Shopping list', 'PERSIMMON'],
      'persimmon',
    ],
  ])(
    '%s: %s, and search finds it',
    async (name, _why, words, term) => {
      const doc = await finished(ids.get(name)!);
      expect(doc).toMatchObject({ status: 'completed', error: null });
      for (const word of words) expect(doc.content).toContain(word);
      if (name === 'scan-g4.pdf')
        expect((doc.content as string).indexOf('KESTREL')).toBeLessThan((doc.content as string).indexOf('OSPREY'));
      expect(await searchIds(term)).toContain(ids.get(name));
    },
    120_000,
  );
});

describe('a hopeless scan', () => {
  it('reaches its verdict in seconds, not the 60 s limit: completed, no text found (content "")', async () => {
    const id = (await upload(['hopeless-scan.jpg'])).get('hopeless-scan.jpg')!;
    const doc = await finished(id);
    expect(doc).toMatchObject({ status: 'completed', content: '', error: null });
    // Read as one block of text, this page takes tesseract.js 15-30 s and yields garbage.
    expect(Date.parse(doc.processed_at as string) - Date.parse(doc.created_at as string)).toBeLessThan(10_000);
  }, 120_000);
});
