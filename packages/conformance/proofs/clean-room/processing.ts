// Background processing: the PDF text layer through unpdf; no OCR engine exists offline (see README).
import { extractText, getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import type { StoredDocument } from './catalog.js';

const NO_OCR = 'This deployment has no OCR engine, so pages without a text layer and images cannot be read.';

async function readPdf(bytes: Buffer): Promise<{ text: string } | { error: string }> {
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    const { text } = await extractText(pdf, { mergePages: true });
    const trimmed = text.trim();
    if (trimmed !== '') return { text: trimmed };
    // No text layer: a page that paints no image is blank, read whole; one that does is a scan needing OCR.
    return (await paintsImages(pdf)) ? { error: NO_OCR } : { text: '' };
  } catch {
    return { error: 'The PDF could not be parsed.' };
  }
}

type Pdf = Awaited<ReturnType<typeof getDocumentProxy>>;

async function paintsImages(pdf: Pdf): Promise<boolean> {
  const { OPS } = await getResolvedPDFJS();
  const imageOps = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const { fnArray } = await page.getOperatorList();
    if (fnArray.some((op: number) => imageOps.has(op))) return true;
  }
  return false;
}

export function startRun(doc: StoredDocument, runMs = 20): void {
  setTimeout(() => {
    void (async () => {
      const attempt = doc.attempts;
      const outcome = doc.content_type === 'application/pdf' ? await readPdf(doc.bytes) : { error: NO_OCR };
      // A newer run superseded this one; it will finish on its own.
      if (doc.attempts !== attempt || doc.status !== 'processing') return;
      const now = new Date().toISOString();
      if ('text' in outcome) {
        doc.status = 'completed';
        doc.content = outcome.text;
      } else {
        doc.status = 'failed';
        doc.error = { code: 'unreadable_document', message: outcome.error };
      }
      doc.updated_at = now;
      doc.processed_at = now;
    })();
  }, runMs);
}

export function sniffType(bytes: Buffer): StoredDocument['content_type'] | undefined {
  if (bytes.length >= 5 && bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  return undefined;
}
