import { readFileSync } from 'node:fs';
import { fixturesDir } from '@docproc-kit/contract/fixtures.js';
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
 * A one-page PDF whose text layer holds `lines` in Helvetica (a standard font, so nothing is embedded),
 * written out directly rather than by a PDF library: the suite and every model sequence make many small
 * PDFs, and a library costs both install size and milliseconds per file.
 * @example minimalTextPdf(['docproc conformance model', 'word zqkxv']);
 */
export function minimalTextPdf(lines: string[]): Uint8Array {
  const text = lines.map((l, i) => `${i ? '0 -30 Td ' : ''}(${l.replace(/[()\\]/g, '\\$&')}) Tj`).join(' ');
  const stream = `BT /F1 18 Tf 40 250 Td ${text} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 300] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, 'latin1'));
}

/**
 * A one-page PDF whose text layer holds `lines` (so content search and extraction can be proven).
 * @example const pdf = await textPdf(['Conformance check', word]);
 */
export async function textPdf(lines: string[]): Promise<Uint8Array> {
  return minimalTextPdf(lines);
}

/** A one-page PDF with nothing on its page: read whole, it holds no text (the contract: completed with content ""). */
export async function blankPdf(): Promise<Uint8Array> {
  return minimalTextPdf([]);
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
