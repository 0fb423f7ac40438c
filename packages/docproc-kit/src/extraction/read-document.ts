import { readFile } from 'node:fs/promises';
import { explainPdfError, FILE_UNREADABLE, tooManyPages } from '@docproc-kit/reference/processing/extraction.js';
import type { Extraction } from '@docproc-kit/reference/processing/lifecycle.js';
import { type ExtractionJob, memoryLimitError, type Whereabouts } from './child-protocol.js';
import { collectGarbage, isAllocationFailure } from './memory-limit.js';
import type { OcrReader } from './ocr-reader.js';
import { openPdf, type PdfFile } from './pdf-pages.js';

// Runs inside an extraction process (see extraction-child.ts).

/** Told where the reading is: page 0 while opening a PDF. */
export type Progress = (at: Whereabouts) => void;

/** What reading a document gave, and whether the memory limit stopped it (its process is then not kept). */
export interface DocumentReading {
  extraction: Extraction;
  memoryLimitReached: boolean;
}

// tesseract's wasm memory grows to fit the largest image it has read and never shrinks, and its
// worker thread frees its copies of past images only when it sees fit. Past this share of the memory
// limit after a page, the worker is ended and the next page starts a new one (about 0.3 s).
const OCR_RESTART_SHARE = 0.5;
const MIB = 1024 * 1024;

// The text of a PDF, page after page: its text layer; a page without one that draws something (a
// scan) is rendered and read by OCR, and its image released, before the next page is looked at.
// A failed allocation is thrown on; `at` says where it happened.
async function readPdf(bytes: Uint8Array, job: ExtractionJob, ocr: OcrReader, at: Whereabouts, progress: Progress): Promise<Extraction> {
  let pdf: PdfFile;
  try {
    pdf = await openPdf(bytes, { maxRenderPixels: job.maxRenderPixels });
  } catch (error) {
    if (isAllocationFailure(error)) throw error;
    return { ok: false, error: explainPdfError(error) };
  }
  try {
    at.pages = pdf.pages;
    if (pdf.pages > job.maxPdfPages) return tooManyPages(pdf.pages, job.maxPdfPages);
    const texts: string[] = [];
    for (let number = 1; number <= pdf.pages; number++) {
      at.page = number;
      progress(at);
      let rendered = false;
      const read = await pdf.withPage(number, async (page): Promise<Extraction> => {
        if (page.kind === 'text') return { ok: true, text: page.text };
        if (page.kind === 'blank') return { ok: true, text: '' };
        rendered = true;
        return ocr.readRendered(await page.render());
      });
      if (rendered) {
        collectGarbage();
        if (process.memoryUsage.rss() > job.memoryMb * MIB * OCR_RESTART_SHARE) await ocr.close();
      }
      if (!read.ok) return { ok: false, error: { ...read.error, message: `Page ${number}: ${read.error.message}` } };
      texts.push(read.text);
    }
    return { ok: true, text: texts.filter(Boolean).join('\n\n') };
  } catch (error) {
    if (isAllocationFailure(error)) throw error;
    return { ok: false, error: explainPdfError(error) };
  } finally {
    await pdf.close();
  }
}

/**
 * Reads a stored file's text by its detected type: a PDF page by page (text layer, or OCR of pages
 * without one), a PNG or JPEG by OCR. A failed allocation (the process's memory limit) ends it as
 * `unreadable_document` naming the limit and the page.
 * @example const { extraction } = await readDocument(job, createOcrReader(), (at) => process.send?.({ type: 'progress', ...at }));
 */
export async function readDocument(job: ExtractionJob, ocr: OcrReader, progress: Progress): Promise<DocumentReading> {
  let bytes: Uint8Array;
  try {
    const file = job.bytes ?? (await readFile(job.path));
    // pdf.js refuses a Buffer; the same memory, seen as a plain Uint8Array.
    bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  } catch {
    return { extraction: FILE_UNREADABLE, memoryLimitReached: false };
  }
  const at: Whereabouts = { kind: job.contentType === 'application/pdf' ? 'pdf' : 'image', page: 0, pages: 0 };
  progress(at);
  try {
    const extraction = at.kind === 'pdf' ? await readPdf(bytes, job, ocr, at, progress) : await ocr.readImage(bytes, job);
    return { extraction, memoryLimitReached: false };
  } catch (error) {
    if (!isAllocationFailure(error)) throw error;
    return { extraction: memoryLimitError(at, job.memoryMb), memoryLimitReached: true };
  }
}
