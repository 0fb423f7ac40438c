import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { flateBombPdf, shapePagesPdf } from '@docproc-kit/test-support/hostile-pdfs.js';
import { descendantsRunning, rssBytes } from '@docproc-kit/test-support/process-tree.js';
import { until } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractionPool, type ExtractionPoolOptions } from './extraction-pool.js';

// The extraction processes as the server runs them: real pdf.js, canvases and tesseract in real
// child processes under a real memory limit, fed hostile files.
const fixture = (name: string) => fixturePath(name);
const MIB = 1024 * 1024;
const LIMITS: ExtractionPoolOptions = {
  maxPdfPages: 500,
  maxImagePixels: 100_000_000,
  maxRenderPixels: 25_000_000,
  timeoutMs: 30_000,
  memoryMb: 512,
  recycleAboveMb: 256,
};
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docproc-pool-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const extractionProcesses = () => descendantsRunning(process.pid, 'extraction-child');

async function temp(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

describe('the memory limit of an extraction', () => {
  it('stops a content stream that inflates past it at page 1, naming the limit, and the next document is read by a new process', async () => {
    const pool = createExtractionPool({ ...LIMITS, memoryMb: 256 });
    try {
      // About 1 MB on disk; 1 GiB of zeros once inflated.
      const bomb = await temp('bomb.pdf', await flateBombPdf(1024 ** 3));
      const started = performance.now();
      expect(await pool.extract({ path: bomb }, 'application/pdf')).toEqual({
        ok: false,
        error: {
          code: 'unreadable_document',
          message: 'Reading page 1 of 1 of the PDF needed more than 256 MiB of memory, the extraction memory limit; it was stopped there.',
        },
      });
      expect(performance.now() - started).toBeLessThan(20_000);
      // The process that hit the limit is gone, not kept for the next document.
      expect(await until(() => pool.processes === 0, 5_000)).toBe(true);
      const next = await pool.extract({ path: fixture('text.pdf') }, 'application/pdf');
      expect(next.ok && next.text).toContain('PELICAN');
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('holds while the pages of a large scan are rendered and read one at a time', async () => {
    // Six pages of 3000 x 3000 pt, each rendered at 8 million pixels (32 MB of canvas, 8 MB of grey)
    // and read by OCR: held at once, with the OCR engine's share, they would need more than the limit.
    const pool = createExtractionPool({ ...LIMITS, memoryMb: 384, maxRenderPixels: 8_000_000, timeoutMs: 120_000 });
    let peak = 0;
    const sampler = setInterval(() => {
      for (const pid of extractionProcesses()) peak = Math.max(peak, rssBytes(pid));
    }, 20);
    try {
      const scan = await temp('six-large-pages.pdf', await shapePagesPdf(6, 3000, 3000));
      expect(await pool.extract({ path: scan }, 'application/pdf')).toEqual({ ok: true, text: '' });
      expect(peak).toBeGreaterThan(0);
      expect(peak).toBeLessThanOrEqual(384 * MIB);
    } finally {
      clearInterval(sampler);
      await pool.close();
    }
  }, 90_000);
});

describe('extraction processes', () => {
  it('are kept and reused while small, and replaced once a document left one larger than the recycle size', async () => {
    const pool = createExtractionPool({ ...LIMITS, recycleAboveMb: 150 });
    try {
      expect((await pool.extract({ path: fixture('text.pdf') }, 'application/pdf')).ok).toBe(true);
      const [small] = extractionProcesses();
      expect(pool.processes).toBe(1);
      expect((await pool.extract({ path: fixture('multipage.pdf') }, 'application/pdf')).ok).toBe(true);
      expect(extractionProcesses()).toEqual([small]);
      // OCR grows a process past 150 MiB (tesseract's wasm memory never shrinks): it is not kept.
      const read = await pool.extract({ path: fixture('scanned.png') }, 'image/png');
      expect(read.ok && read.text).toContain('SOURDOUGH');
      expect(await until(() => extractionProcesses().length === 0 && pool.processes === 0, 5_000)).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('one that dies mid-document fails it as a transient processing_error, and the next document gets a new one', async () => {
    const pool = createExtractionPool(LIMITS);
    try {
      const scan = await temp('slow-scan.pdf', await shapePagesPdf(40, 612, 792));
      // The process this extraction starts, not one another test file's pool is still ending.
      const before = new Set(extractionProcesses());
      const reading = pool.extract({ path: scan }, 'application/pdf');
      const startedByIt = () => extractionProcesses().find((pid) => !before.has(pid));
      expect(await until(() => startedByIt() !== undefined, 10_000)).toBe(true);
      process.kill(startedByIt()!, 'SIGKILL');
      expect(await reading).toEqual({
        ok: false,
        error: { code: 'processing_error', message: 'The extraction process stopped unexpectedly; a retry may succeed.' },
      });
      const next = await pool.extract({ path: fixture('text.pdf') }, 'application/pdf');
      expect(next.ok && next.text).toContain('PELICAN');
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('are all ended by close, and a document asked for afterwards is refused as the server shutting down', async () => {
    const pool = createExtractionPool(LIMITS);
    expect((await pool.extract({ path: fixture('text.pdf') }, 'application/pdf')).ok).toBe(true);
    await pool.close();
    expect(extractionProcesses()).toEqual([]);
    expect(await pool.extract({ path: fixture('text.pdf') }, 'application/pdf')).toEqual({
      ok: false,
      error: { code: 'processing_error', message: 'The server is shutting down.' },
    });
  }, 30_000);
});
