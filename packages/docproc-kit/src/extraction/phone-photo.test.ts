import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_EXTRACTION_LIMITS, type Extractor, type FileSource } from '@docproc-kit/reference/processing/extraction.js';
import { phonePhoto } from '@docproc-kit/test-support/phone-photo.js';
import { descendantsRunning, rssBytes } from '@docproc-kit/test-support/process-tree.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractor } from './extractor.js';

// Phone photos as phones store them (12 megapixels, pixels stored sideways, EXIF orientation 6 in
// either byte order), generated here and read by the server's own extractor: real extraction
// processes under the default memory limit, real Skia and tesseract. OCR of 12 megapixels takes
// seconds, tens of them on a busy 2-core machine.
const MIB = 1024 * 1024;
const LINES = ['Shopping list', 'Item: PERSIMMON', 'Bring the receipt'];
const onDisk = (path: string): FileSource => ({ path, bytes: () => readFile(path) });
let dir: string;
let extractor: Extractor;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docproc-photos-'));
  extractor = createExtractor(DEFAULT_EXTRACTION_LIMITS);
});
afterAll(async () => {
  await extractor?.close();
  await rm(dir, { recursive: true, force: true });
});

async function temp(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

/** Runs `read` while sampling the resident memory of each extraction process; returns the result and the highest sample. */
async function withPeak<T>(read: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = 0;
  const sampler = setInterval(() => {
    for (const pid of descendantsRunning(process.pid, 'extraction-child')) peak = Math.max(peak, rssBytes(pid));
  }, 20);
  try {
    return { result: await read(), peak };
  } finally {
    clearInterval(sampler);
  }
}

describe('a 12-megapixel phone photo stored sideways', () => {
  it.each([
    ['II', 'little-endian (Android)'],
    ['MM', 'big-endian (iPhone)'],
  ] as const)(
    'with %s EXIF, %s, is read upright under the default memory limit',
    async (byteOrder, _phones) => {
      const photo = await phonePhoto({ orientation: 6, byteOrder, lines: LINES });
      const path = await temp(`photo-${byteOrder}.jpg`, photo);
      const { result, peak } = await withPeak(() => extractor.extract(onDisk(path), 'image/jpeg'));
      expect(result).toEqual({ ok: true, text: expect.any(String) });
      for (const line of LINES) expect(result.ok && result.text).toContain(line);
      expect(peak).toBeGreaterThan(0);
      expect(peak).toBeLessThan(DEFAULT_EXTRACTION_LIMITS.memoryMb * MIB);
    },
    120_000,
  );

  it('cut off halfway (an upload that broke off) is refused as truncated, naming no memory limit', async () => {
    const photo = await phonePhoto({ orientation: 6, byteOrder: 'II', lines: LINES });
    const path = await temp('cut-off.jpg', photo.subarray(0, Math.floor(photo.length / 2)));
    expect(await extractor.extract(onDisk(path), 'image/jpeg')).toEqual({
      ok: false,
      error: {
        code: 'unreadable_document',
        message: 'The JPEG is truncated: it ends before its end-of-image marker, so the image cannot be decoded.',
      },
    });
  }, 60_000);
});

describe('an image that needs more memory than the limit', () => {
  it('fails naming the limit, not blaming the file', async () => {
    const small = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, memoryMb: 256 });
    try {
      // 63 megapixels (within the pixel limit): 252 MB once decoded, more than 256 MiB leaves.
      const huge = await phonePhoto({ orientation: 1, byteOrder: 'MM', width: 7000, height: 9000, lines: LINES });
      const path = await temp('huge.jpg', huge);
      expect(await small.extract(onDisk(path), 'image/jpeg')).toEqual({
        ok: false,
        error: {
          code: 'unreadable_document',
          message: 'Reading the image needed more than 256 MiB of memory, the extraction memory limit; it was stopped there.',
        },
      });
    } finally {
      await small.close();
    }
  }, 180_000);
});
