import { readFile } from 'node:fs/promises';
import type { ContentType } from '../model.js';
import type { Extraction } from './lifecycle.js';
import { createOcrExtractor } from './ocr-extractor.js';
import { createPdfExtractor } from './pdf-extractor.js';

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

/** The defaults of {@link ExtractionLimits}. */
export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  maxPdfPages: 500,
  maxImagePixels: 100_000_000,
  timeoutMs: 60_000,
  maxPdfMemoryMb: 512,
};

/** Extracts the text of a stored file by its detected type. */
export interface Extractor {
  extract(path: string, contentType: ContentType): Promise<Extraction>;
  close(): Promise<void>;
}

/**
 * The real extractor: the PDF text layer through unpdf, OCR for PNG and JPEG through tesseract.js,
 * both started lazily. `workers` bounds the OCR workers (match the queue's concurrency).
 * @example const extractor = createExtractor({ ...DEFAULT_EXTRACTION_LIMITS, workers: 2 });
 */
export function createExtractor(options: ExtractionLimits & { workers: number }): Extractor {
  const pdf = createPdfExtractor({ maxPages: options.maxPdfPages, timeoutMs: options.timeoutMs, maxMemoryMb: options.maxPdfMemoryMb });
  const ocr = createOcrExtractor({ maxImagePixels: options.maxImagePixels, timeoutMs: options.timeoutMs, workers: options.workers });
  return {
    async extract(path, contentType) {
      let bytes: Uint8Array;
      try {
        bytes = await readFile(path);
      } catch {
        return { ok: false, error: { code: 'processing_error', message: 'The stored file could not be read; a retry may succeed.' } };
      }
      return contentType === 'application/pdf' ? pdf.extract(bytes) : ocr.extract(bytes);
    },
    async close() {
      await Promise.all([pdf.close(), ocr.close()]);
    },
  };
}
