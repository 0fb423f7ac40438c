import { readFileSync } from 'node:fs';
import { fixturesDir } from '@docproc-kit/contract/fixtures.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { FilePart } from './exchange.js';

/** A fixture shipped with the package (corrupt.pdf, not-a-document.txt, truncated.png, photo.jpg, ...). */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixturesDir + name));
}

/** The path of a shipped fixture (for reproducers and messages). */
export function fixturePath(name: string): string {
  return fixturesDir + name;
}

/** A random lower-case word that no dictionary, filename or other run contains. */
export function randomWord(length = 12): string {
  let word = 'zq';
  while (word.length < length) word += 'bcdfghjklmnpqrstvwxz'[Math.floor(Math.random() * 20)];
  return word;
}

/**
 * A one-page PDF whose text layer holds `lines` (so content search and extraction can be proven).
 * @example const pdf = await textPdf(['Conformance check', word]);
 */
export async function textPdf(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // A fixed date keeps the bytes a function of the text alone.
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([420, 300]);
  for (const [i, line] of lines.entries()) page.drawText(line, { x: 40, y: 250 - i * 30, size: 18, font });
  return doc.save();
}

/** A one-page PDF with nothing on its page: read whole, it holds no text (the contract: completed with content ""). */
export async function blankPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  doc.addPage([420, 300]);
  return doc.save();
}

/** The first bytes of a real JPEG: detected as image/jpeg by its signature, fails processing quickly. */
export function truncatedJpeg(): Uint8Array {
  return fixture('photo.jpg').slice(0, 400);
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
