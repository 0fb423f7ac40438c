import type { ContentType } from '@docproc-kit/reference/model.js';
import type { Extraction } from '@docproc-kit/reference/processing/lifecycle.js';

/** A stored file, where the extraction process finds it: a path on this machine's disk, or its bytes. */
export type ExtractionInput = { path: string; bytes?: undefined } | { bytes: Uint8Array; path?: undefined };

/** What an extraction process is asked to read: a stored file, and the limits it reads it within. */
export type ExtractionJob = ExtractionInput & ExtractionLimitsOfJob;

/** The limits a job is read within. */
export interface ExtractionLimitsOfJob {
  contentType: ContentType;
  maxPdfPages: number;
  maxImagePixels: number;
  /** A scanned PDF page is rendered for OCR with at most this many pixels. */
  maxRenderPixels: number;
  /** The memory limit the process runs under, in MiB, for the messages that name it. */
  memoryMb: number;
}

/**
 * What an extraction process says while it reads: which page it is on (page 0: opening the
 * document; pages 0: not a PDF or not yet known), and the result, with whether the memory limit
 * stopped it (the process is then replaced, whatever its size).
 */
export type ChildMessage =
  | { type: 'progress'; page: number; pages: number }
  | { type: 'result'; extraction: Extraction; memoryLimitReached: boolean };

/** Where a document was when a limit stopped it. */
export interface Whereabouts {
  kind: 'pdf' | 'image';
  page: number;
  pages: number;
}

const where = ({ kind, page, pages }: Whereabouts) =>
  kind === 'image' ? 'Reading the image' : page === 0 ? 'Opening the PDF' : `Reading page ${page} of ${pages} of the PDF`;

/**
 * The error of a document stopped by the extraction memory limit, naming the limit and the page.
 * @example memoryLimitError({ kind: 'pdf', page: 3, pages: 40 }, 512).message; // 'Reading page 3 of 40 of the PDF needed more than ...'
 */
export function memoryLimitError(at: Whereabouts, memoryMb: number): Extraction {
  return {
    ok: false,
    error: {
      code: 'unreadable_document',
      message: `${where(at)} needed more than ${memoryMb} MiB of memory, the extraction memory limit; it was stopped there.`,
    },
  };
}

/** The error of a document stopped by the processing time limit, naming the page it had reached. */
export function timeLimitError(at: Whereabouts, timeoutMs: number): Extraction {
  const subject = at.kind === 'image' ? 'the image' : 'the PDF';
  const reached = at.kind === 'pdf' && at.page > 0 ? `; it was stopped at page ${at.page} of ${at.pages}` : '';
  return {
    ok: false,
    error: {
      code: 'unreadable_document',
      message: `Reading ${subject} took longer than ${timeoutMs / 1000} s, the processing time limit${reached}.`,
    },
  };
}
