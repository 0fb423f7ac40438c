import { type ExtractionLimits, type Extractor, FILE_UNREADABLE, MAX_RENDER_PIXELS } from '@docproc-kit/reference/processing/extraction.js';
import { createExtractionPool, type ReplacedBecause } from './extraction-pool.js';

/**
 * The real extractor: each document is read in an extraction process (one per concurrent
 * extraction; the processor's queue bounds how many) under the time and memory limits: the PDF text layer through unpdf (pdf.js), pages
 * without one rendered and read by OCR one at a time, PNG and JPEG by OCR (tesseract.js).
 * @example const extractor = createExtractor(DEFAULT_EXTRACTION_LIMITS);
 */
export function createExtractor(options: ExtractionLimits, onReplaced?: (reason: ReplacedBecause) => void): Extractor {
  const pool = createExtractionPool({
    ...options,
    onReplaced,
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
        return FILE_UNREADABLE;
      }
      return pool.extract({ bytes }, contentType);
    },
    close: () => pool.close(),
  };
}
