import { readFileSync } from 'node:fs';
import { fixturesDir } from '@docproc-kit/contract/fixtures.js';
import { textPdf } from '@docproc-kit/contract/text-pdf.js';
import type { FilePart } from '../definitions/exchange.js';

/** A fixture shipped with the package (corrupt.pdf, not-a-document.txt, truncated.png, photo.jpg, ...). */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixturesDir + name));
}

/** The path of a shipped fixture (for reproducers and messages). */
export function fixturePath(name: string): string {
  return fixturesDir + name;
}

/** A one-page PDF whose text layer holds the lines given (so content search and extraction can be proven). */
export { textPdf };

/** A random lower-case word that no dictionary, filename or other run contains. */
export function randomWord(length = 12): string {
  let word = 'zq';
  while (word.length < length) word += 'bcdfghjklmnpqrstvwxz'[Math.floor(Math.random() * 20)];
  return word;
}

/** A one-page PDF with nothing on its page: read whole, it holds no text (the contract: completed with content ""). */
export function blankPdf(): Uint8Array {
  return textPdf([]);
}

/** The first bytes of a real JPEG: detected as image/jpeg by its signature, fails processing quickly. */
export function truncatedJpeg(): Uint8Array {
  return fixture('photo.jpg').slice(0, 400);
}

/**
 * The first bytes of a real JPEG as cameras write it: an Exif APP1 segment first and no JFIF APP0 (FF D8 FF E1,
 * not E0), so a sniffer that wants JFIF's signature refuses it. Still a JPEG by its leading bytes; fails quickly.
 */
export function truncatedExifJpeg(): Uint8Array {
  const jfif = fixture('photo.jpg');
  const afterApp0 = 4 + ((jfif[4]! << 8) | jfif[5]!);
  const exifApp1 = [0xff, 0xd8, 0xff, 0xe1, 0x00, 0x08, ...new TextEncoder().encode('Exif\0\0')];
  return new Uint8Array([...exifApp1, ...jfif.subarray(afterApp0, 400)]);
}

/** `pdf` (a `%PDF-1.4` file) declared PDF 2.0: a header of the same length, so its offsets still hold. */
export function asPdf20(pdf: Uint8Array): Uint8Array {
  const copy = pdf.slice();
  copy.set(new TextEncoder().encode('%PDF-2.0'), 0);
  return copy;
}

/** A PDF-signed file of exactly `size` bytes (for the size limit). */
export function pdfOfSize(size: number): Uint8Array {
  const data = new Uint8Array(size).fill(0x20);
  data.set(new TextEncoder().encode('%PDF-1.7\n'));
  return data;
}

/** A `files[]` part. */
export function part(filename: string, data: Uint8Array, contentType = 'application/pdf', field = 'files[]'): FilePart {
  return { field, filename, contentType, data };
}

/** A legible scan among the contract's fixtures (fixtures/README.md): printed text with no text layer. */
export interface LegibleScan {
  file: string;
  contentType: 'image/png' | 'application/pdf';
  /** Words printed on it that any OCR engine reads, lower-cased (an engine may misread one: a check asks for a few). */
  words: readonly string[];
}

/** An image (OCR for images) and a PDF whose page is a scan (OCR of a page with no text layer). */
export const LEGIBLE_SCANS: readonly LegibleScan[] = [
  { file: 'scanned.png', contentType: 'image/png', words: ['corner', 'bakery', 'receipt', '20931', 'sourdough', 'loaf'] },
  { file: 'scan-jpeg.pdf', contentType: 'application/pdf', words: ['warehouse', 'receipt', '7731', 'reference', 'halibut'] },
];
