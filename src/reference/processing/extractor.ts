import type { ContentType } from '../model.js';
import type { Extraction } from './lifecycle.js';
import { createOcrExtractor, type OcrExtractor } from './ocr-extractor.js';
import { createPdfExtractor, type PdfExtractor } from './pdf-extractor.js';

/** The guards of text extraction. */
export interface ExtractionLimits {
  /** PDFs with more pages are `unreadable_document` (default 500). */
  maxPdfPages: number;
  /** Images declaring more pixels are `unreadable_document` (default 100 million). */
  maxImagePixels: number;
  /** One extraction may take at most this long (default 60 s). */
  timeoutMs: number;
  /** Heap limit of a PDF worker, in MB (default 512). */
  maxPdfMemoryMb: number;
}

/**
 * A scanned PDF page is rendered for OCR with at most this many pixels (an A4 page at 200 dpi has
 * 3.9 million), or `maxImagePixels` when that is lower; larger pages are rendered at a lower dpi.
 */
export const MAX_RENDER_PIXELS = 25_000_000;

/** The defaults of {@link ExtractionLimits}. */
export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  maxPdfPages: 500,
  maxImagePixels: 100_000_000,
  timeoutMs: 60_000,
  maxPdfMemoryMb: 512,
};

/** A stored file to extract: its bytes, and where it is on disk when it is in a file. */
export interface FileSource {
  path?: string;
  bytes(): Promise<Uint8Array>;
}

/** Extracts the text of a stored file by its detected type. */
export interface Extractor {
  extract(source: FileSource, contentType: ContentType): Promise<Extraction>;
  close(): Promise<void>;
}

// The text of a PDF: each page's text layer; a page without one (a scan) is rendered and read by
// OCR, one page after another on the shared OCR workers, all within the document's time limit.
async function readPdf(pdf: PdfExtractor, ocr: OcrExtractor, bytes: Uint8Array, timeoutMs: number): Promise<Extraction> {
  const started = performance.now();
  const reading = await pdf.extract(bytes);
  if (!reading.ok) return reading;
  const texts: string[] = [];
  for (const [index, page] of reading.pages.entries()) {
    if ('text' in page) {
      texts.push(page.text);
      continue;
    }
    const left = timeoutMs - (performance.now() - started);
    const read = left > 0 ? await ocr.extract(page.image, left) : undefined;
    // Out of time, whether before this page or while reading it.
    if (!read || (!read.ok && performance.now() - started >= timeoutMs)) {
      const message = `Reading the PDF (OCR of its scanned pages) took longer than ${timeoutMs / 1000} s, the processing time limit.`;
      return { ok: false, error: { code: 'unreadable_document', message } };
    }
    if (!read.ok) return { ok: false, error: { ...read.error, message: `Page ${index + 1}: ${read.error.message}` } };
    texts.push(read.text);
  }
  return { ok: true, text: texts.filter(Boolean).join('\n\n') };
}

/**
 * The real extractor: the PDF text layer through unpdf (and OCR of pages without one), OCR for PNG
 * and JPEG through tesseract.js, both started lazily. `workers` bounds the OCR workers (match the
 * queue's concurrency).
 * @example const extractor = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, workers: 2 });
 */
export function createExtractor(options: ExtractionLimits & { workers: number }): Extractor {
  const pdf = createPdfExtractor({
    maxPages: options.maxPdfPages,
    timeoutMs: options.timeoutMs,
    maxMemoryMb: options.maxPdfMemoryMb,
    maxRenderPixels: Math.min(MAX_RENDER_PIXELS, options.maxImagePixels),
  });
  const ocr = createOcrExtractor({ maxImagePixels: options.maxImagePixels, timeoutMs: options.timeoutMs, workers: options.workers });
  return {
    async extract(source, contentType) {
      let bytes: Uint8Array;
      try {
        bytes = await source.bytes();
      } catch {
        return { ok: false, error: { code: 'processing_error', message: 'The stored file could not be read; a retry may succeed.' } };
      }
      return contentType === 'application/pdf' ? readPdf(pdf, ocr, bytes, options.timeoutMs) : ocr.extract(bytes);
    },
    async close() {
      await Promise.all([pdf.close(), ocr.close()]);
    },
  };
}
