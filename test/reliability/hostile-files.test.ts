import { readFile } from 'node:fs/promises';
import { createDeflate } from 'node:zlib';
import { createDocprocClient, type DocprocClient } from '@docproc-kit/client';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Hostile files through the whole server: uploaded over HTTP, queued one at a time, each must end
// `failed` (unreadable_document) within the extraction time limit, and the good file queued behind
// them must still complete.
type Server = Awaited<ReturnType<typeof startReferenceServer>>;
const TIME_LIMIT_MS = 3_000;
let server: Server;
let client: DocprocClient;
beforeAll(async () => {
  server = await startReferenceServer({ concurrency: 1, processingDelayMs: 0, extraction: { timeoutMs: TIME_LIMIT_MS } });
  client = createDocprocClient({ baseUrl: server.baseUrl, apiKey: 'docproc-dev-key' });
});
afterAll(() => server?.close());

/** A PDF with correct xref offsets from object bodies (each a string or bytes). */
function pdfOf(objects: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'),
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** Deflates `totalBytes` of text-drawing operators without ever holding them in memory. */
async function deflatedOperators(totalBytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const block = Buffer.from('BT /F1 1 Tf 0 0 Td (bomb) Tj ET\n'.repeat(32_768));
  for (let written = 0; written < totalBytes; written += block.length) {
    if (!deflate.write(block)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** A page whose content stream inflates from about 1 MB to 1 GiB of text operators. */
async function decompressionBomb(): Promise<Buffer> {
  const stream = await deflatedOperators(1024 ** 3);
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`), stream, Buffer.from('\nendstream')]),
  ]);
}

/**
 * A page tree with 20,000 real (empty) pages. A merely declared /Count is no threat: pdf.js checks
 * it against the tree and corrects it, so the pages have to exist.
 */
function hugePageCount(pages = 20_000): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] >>'),
  ]);
}

/** A valid PNG header declaring 100,000 x 100,000 pixels, with almost no data. */
function enormousPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(16)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('hostile files, queued one at a time', () => {
  it('each fails cleanly as unreadable_document within the time limit, and the good file behind them completes', async () => {
    const good = await readFile(fixturePath('text.pdf'));
    const { data, error } = await client.uploadDocuments([
      { name: 'bomb.pdf', data: await decompressionBomb() },
      { name: 'twenty-thousand-pages.pdf', data: hugePageCount() },
      { name: 'enormous.png', data: enormousPng() },
      { name: 'good.pdf', data: good },
    ]);
    expect(error).toBeUndefined();
    const started = Date.now();
    const [bomb, pages, png, fine] = await Promise.all(
      data!.documents.map(
        async (doc) => (await client.waitForDocument(doc.document_id, { timeoutMs: 30_000, initialIntervalMs: 50 })).data!,
      ),
    );
    // At worst each hostile file uses up its whole time limit, one after the other.
    expect(Date.now() - started).toBeLessThan(3 * TIME_LIMIT_MS + 5_000);
    for (const doc of [bomb, pages, png])
      expect(doc, doc?.filename).toMatchObject({ status: 'failed', error: { code: 'unreadable_document' } });
    expect(pages!.error!.message).toMatch(/20000 pages/);
    expect(png!.error!.message).toMatch(/100000×100000 pixels/);
    expect(fine).toMatchObject({ status: 'completed', content: expect.stringContaining('PELICAN') });
  }, 60_000);
});
