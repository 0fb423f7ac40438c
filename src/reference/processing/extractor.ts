import type { ContentType } from '../model.js';
import { createExtractionPool } from './extraction-pool.js';
import type { Extraction } from './lifecycle.js';

/** The guards of text extraction. */
export interface ExtractionLimits {
  /** PDFs with more pages are `unreadable_document` (default 500). */
  maxPdfPages: number;
  /** Images declaring more pixels are `unreadable_document` (default 100 million). */
  maxImagePixels: number;
  /** One extraction may take at most this long (default 60 s). */
  timeoutMs: number;
  /**
   * All the memory one extraction may take, in MiB (default 512): its process's resident memory,
   * JavaScript heap, buffers, canvases and OCR engine alike (`--extraction-memory-mb`).
   */
  memoryMb: number;
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
  memoryMb: 512,
};

/** The smallest memory limit an extraction process can start and read a page under, in MiB. */
export const MIN_EXTRACTION_MEMORY_MB = 256;

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

/**
 * The real extractor: each document is read in an extraction process (one per concurrent
 * extraction; the processor's queue bounds how many) under the time and memory limits: the PDF text layer through unpdf (pdf.js), pages
 * without one rendered and read by OCR one at a time, PNG and JPEG by OCR (tesseract.js).
 * @example const extractor = createExtractor(DEFAULT_EXTRACTION_LIMITS);
 */
export function createExtractor(options: ExtractionLimits): Extractor {
  const pool = createExtractionPool({
    ...options,
    maxRenderPixels: Math.min(MAX_RENDER_PIXELS, options.maxImagePixels),
    recycleAboveMb: Math.floor(options.memoryMb / 2),
  });
  return {
    async extract(source, contentType) {
      // A file on this machine's disk is read by the extraction process itself; bytes a store keeps
      // elsewhere (memory, a database) are handed to it.
      if (source.path !== undefined) return pool.extract({ path: source.path }, contentType);
      let bytes: Uint8Array;
      try {
        bytes = await source.bytes();
      } catch {
        return { ok: false, error: { code: 'processing_error', message: 'The stored file could not be read; a retry may succeed.' } };
      }
      return pool.extract({ bytes }, contentType);
    },
    close: () => pool.close(),
  };
}
