import type { ContentType, DocumentError } from '../model.js';
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

/** How long past the extraction time limit (and its process's start-up limit) a run may still hold its slot. */
export const RUN_BUDGET_GRACE_MS = 2_000;

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

// The verdicts every extractor (the server's processes, the in-process mock's) words alike.

/** A document that cannot be read, and why: failed for good, a retry reads it the same. */
export const unreadable = (message: string): Extraction => ({ ok: false, error: { code: 'unreadable_document', message } });

/** The stored file itself could not be read back: a fault of this service, worth a retry. */
export const FILE_UNREADABLE: Extraction = {
  ok: false,
  error: { code: 'processing_error', message: 'The stored file could not be read; a retry may succeed.' },
};

/** A PDF over the page limit. */
export const tooManyPages = (pages: number, max: number): Extraction =>
  unreadable(`The PDF has ${pages} pages; at most ${max} pages are processed.`);

/** Why a PDF could not be opened, from pdf.js's error. */
export function explainPdfError(error: unknown): DocumentError {
  const { name, message } = error instanceof Error ? error : { name: '', message: String(error) };
  if (name === 'PasswordException')
    return { code: 'unreadable_document', message: 'The PDF is password-protected, so its text cannot be read.' };
  if (name === 'InvalidPDFException')
    return { code: 'unreadable_document', message: 'The PDF could not be parsed (its structure is damaged or incomplete).' };
  return { code: 'unreadable_document', message: `The PDF could not be read (${message}).` };
}
