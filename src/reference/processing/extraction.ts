import type { ContentType } from '../model.js';
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
