import { createDeflate } from 'node:zlib';
import { PDFDocument, PDFName } from 'pdf-lib';

/** Deflates `totalBytes` of zeros without ever holding them: about 1 KB out per MB in. */
async function deflatedZeros(totalBytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const block = Buffer.alloc(16 * 1024 * 1024);
  for (let written = 0; written < totalBytes; written += block.length) {
    if (!deflate.write(block.subarray(0, Math.min(block.length, totalBytes - written)))) {
      await new Promise((resolve) => deflate.once('drain', resolve));
    }
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** A one-page PDF whose content stream inflates to `inflatedBytes` of zeros (default 2 GiB, about 2 MB on disk). */
export async function flateBombPdf(inflatedBytes = 2 * 1024 ** 3): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const contents = doc.context.stream(await deflatedZeros(inflatedBytes), { Filter: 'FlateDecode' });
  page.node.set(PDFName.of('Contents'), doc.context.register(contents));
  return doc.save();
}

/**
 * A PDF of `pages` pages of `width` x `height` points, each drawing a filled rectangle and no text,
 * so every page is rendered for OCR: 499 letter pages are ~60 KB, 40 pages of 5000 x 5000 pt ~5 KB.
 */
export async function shapePagesPdf(pages: number, width: number, height: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const draw = `0.2 g ${width / 10} ${height / 10} ${width / 2} ${height / 3 + i} re f`;
    doc.addPage([width, height]).node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(draw)));
  }
  return doc.save();
}
