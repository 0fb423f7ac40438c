import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import type { ContentType } from '@docproc-kit/reference/model.js';
import { DEFAULT_EXTRACTION_LIMITS, type Extractor, type FileSource } from '@docproc-kit/reference/processing/extraction.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractor } from './extractor.js';

// Real unpdf and real tesseract on the fixtures, and deliberately hostile files.
// A stored file as the processor hands it over: on disk, its bytes read on demand.
const onDisk = (path: string): FileSource => ({ path, bytes: () => readFile(path) });
const fixture = (name: string) => fixturePath(name);
let dir: string;
let extractor: Extractor;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docproc-extract-'));
  extractor = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, maxPdfPages: 5, maxImagePixels: 4_000_000, timeoutMs: 20_000 });
});
afterAll(async () => {
  await extractor?.close();
  await rm(dir, { recursive: true, force: true });
});

async function temp(name: string, bytes: Uint8Array | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

/** A PDF written by hand (correct xref), with one content stream per page. */
function handmadePdf(pageContents: string[], mediaBox = '0 0 600 800'): string {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageContents.map((_, i) => `${4 + 2 * i} 0 R`).join(' ')}] /Count ${pageContents.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...pageContents.flatMap((content, i) => [
      `<< /Type /Page /Parent 2 0 R /MediaBox [${mediaBox}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    ]),
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return pdf;
}
const words = (text: string) => `BT /F1 24 Tf 50 700 Td (${text}) Tj ET`;

/** A PNG that is complete (IHDR ... IEND) but declares an enormous size. */
function enormousPng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(16)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('text extraction on the fixtures', () => {
  it.each([
    ['text.pdf', 'application/pdf', ['Harbor Logistics', 'PELICAN']],
    ['scanned.png', 'image/png', ['SOURDOUGH', 'Corner Bakery']],
    ['photo.jpg', 'image/jpeg', ['MARIGOLD', 'Meeting notes']],
  ] as const)(
    '%s yields its words',
    async (name, type, expected) => {
      const result = await extractor.extract(onDisk(fixture(name)), type as ContentType);
      expect(result.ok).toBe(true);
      for (const word of expected) expect(result.ok && result.text).toContain(word);
    },
    60_000,
  );

  it('multipage.pdf yields every page, in page order', async () => {
    const result = await extractor.extract(onDisk(fixture('multipage.pdf')), 'application/pdf');
    const text = result.ok ? result.text : '';
    expect(text.indexOf('ALPHA')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('ALPHA')).toBeLessThan(text.indexOf('BRAVO'));
    expect(text.indexOf('BRAVO')).toBeLessThan(text.indexOf('CHARLIE'));
  });

  it('a blank PDF page (no text layer, nothing drawn) completes with empty text', async () => {
    expect(await extractor.extract(onDisk(await temp('blank.pdf', handmadePdf(['']))), 'application/pdf')).toEqual({ ok: true, text: '' });
  });

  it.each([
    ['corrupt.pdf', 'application/pdf', /could not be parsed/],
    ['truncated.png', 'image/png', /truncated/],
  ] as const)('%s is unreadable_document with a helpful message', async (name, type, message) => {
    const result = await extractor.extract(onDisk(fixture(name)), type as ContentType);
    expect(result).toEqual({ ok: false, error: { code: 'unreadable_document', message: expect.stringMatching(message) } });
  });
});

describe('guards against hostile files', () => {
  it('a PDF with more pages than the limit is refused without reading them', async () => {
    const path = await temp('pages.pdf', handmadePdf(Array.from({ length: 6 }, (_, i) => words(`page ${i}`))));
    expect(await extractor.extract(onDisk(path), 'application/pdf')).toEqual({
      ok: false,
      error: { code: 'unreadable_document', message: 'The PDF has 6 pages; at most 5 pages are processed.' },
    });
  });

  it('a scanned page of 200 × 200 inches is rendered for OCR within the pixel limit, not at 200 dpi', async () => {
    // At 200 dpi this page would be 40,000 × 40,000 pixels (6.4 GB of canvas); the limit here is 4 million.
    const path = await temp('poster.pdf', handmadePdf(['0 0 0 rg 1000 1000 4000 4000 re f'], '0 0 14400 14400'));
    const started = performance.now();
    expect(await extractor.extract(onDisk(path), 'application/pdf')).toEqual({ ok: true, text: '' });
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('an image declaring enormous dimensions is refused before it is decoded', async () => {
    const path = await temp('bomb.png', enormousPng(100_000, 100_000));
    expect(await extractor.extract(onDisk(path), 'image/png')).toEqual({
      ok: false,
      error: { code: 'unreadable_document', message: 'The image is 100000×100000 pixels; at most 4000000 pixels are processed.' },
    });
  });

  it('a PDF that takes too long is cut off at the time limit, and the next file is read normally', async () => {
    const slow = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, timeoutMs: 1_500 });
    try {
      // Eight megabytes of text operators: seconds of parsing, far beyond the limit.
      const heavy = Array.from(
        { length: 60_000 },
        (_, i) => `BT /F1 4 Tf 5 ${i % 790} Td (lorem ipsum dolor sit amet lorem ipsum dolor sit amet ${i}) Tj ET`,
      ).join('\n');
      const path = await temp('slow.pdf', handmadePdf([heavy]));
      const started = performance.now();
      const result = await slow.extract(onDisk(path), 'application/pdf');
      expect(performance.now() - started).toBeLessThan(4_000);
      expect(result).toEqual({
        ok: false,
        error: { code: 'unreadable_document', message: expect.stringContaining('took longer than 1.5 s') },
      });
      const next = await slow.extract(onDisk(fixture('text.pdf')), 'application/pdf');
      expect(next.ok && next.text).toContain('PELICAN');
    } finally {
      await slow.close();
    }
  }, 30_000);

  it("the time limit covers the OCR of a scanned PDF's pages, not only its parsing", async () => {
    const hasty = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, timeoutMs: 1_500 });
    try {
      // Warm: the extraction process has loaded pdf.js and the canvas, so parsing the scan takes a fraction
      // of the limit and OCR of its full A4 page (several seconds) is what runs into it.
      expect((await hasty.extract(onDisk(fixture('text.pdf')), 'application/pdf')).ok).toBe(true);
      const started = performance.now();
      const result = await hasty.extract(onDisk(fixture('scan-a4-letter.pdf')), 'application/pdf');
      expect(result).toEqual({
        ok: false,
        error: { code: 'unreadable_document', message: expect.stringContaining('took longer than 1.5 s') },
      });
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await hasty.close();
    }
  }, 30_000);

  it('OCR that takes too long is cut off, its worker replaced, and later jobs still answer', async () => {
    const hasty = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, timeoutMs: 5 });
    try {
      for (let i = 0; i < 2; i++) {
        const result = await hasty.extract(onDisk(fixture('scanned.png')), 'image/png');
        expect(result).toEqual({ ok: false, error: { code: 'unreadable_document', message: expect.stringContaining('took longer') } });
      }
    } finally {
      await hasty.close();
    }
  }, 30_000);

  it('a PNG whose image data is garbage is refused as damaged by its checksums, not read as what a decoder guesses', async () => {
    const bytes = new Uint8Array(await readFile(fixture('scanned.png')));
    for (let i = 2_000; i < 2_400; i++) bytes[i] = 0xff - bytes[i]!;
    const result = await extractor.extract(onDisk(await temp('damaged.png', bytes)), 'image/png');
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'unreadable_document',
        message: "The PNG is damaged: a chunk's checksum does not match its data, so the image cannot be decoded.",
      },
    });
    // The process that refused it reads the next image.
    const next = await extractor.extract(onDisk(fixture('scanned.png')), 'image/png');
    expect(next.ok && next.text).toContain('SOURDOUGH');
  }, 60_000);

  it('a stored file that has vanished is a transient processing_error', async () => {
    expect(await extractor.extract(onDisk(join(dir, 'missing.pdf')), 'application/pdf')).toEqual({
      ok: false,
      error: { code: 'processing_error', message: expect.any(String) },
    });
  });
});
