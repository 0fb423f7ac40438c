import { SMALL_PAGE, textPdfOfEachPage, textPdfOfPages } from '@docproc-kit/contract/text-pdf.js';
import { DEFAULT_EXTRACTION_LIMITS } from '@docproc-kit/reference/processing/extraction.js';
import type { Extraction } from '@docproc-kit/reference/processing/lifecycle.js';
import { fixture, pdfOfSize, textPdf, truncatedJpeg } from '../inputs/sample-files.js';

/**
 * What a generated file is: a PDF whose text the oracle wrote (`text`), a PDF page with none (`blank`), a
 * damaged PDF, a truncated PNG and a truncated JPEG (whose reading is the deployment's), a PDF of a page more
 * than the reference server's page limit (`pages`: "beyond the processing limits (too many pages)" is
 * `unreadable_document`, but the limit is the deployment's, so its text or its failure is too), a file of no
 * accepted type, one a byte over the deployment's size limit, a 0-byte file (no type: refused), and a
 * PDF-signed file of a byte over half that limit (two of them are over it together, each under it), and a PDF of
 * three pages whose words are only on the last (`later-page`: its text is theirs, as `text`'s).
 */
export type FileContent =
  | 'text'
  | 'blank'
  | 'damaged'
  | 'image'
  | 'photo'
  | 'pages'
  | 'refused'
  | 'over-size'
  | 'empty'
  | 'over-half-size'
  | 'later-page';

/** A generated file: its bytes, and the text processing must find where the contract decides it. */
export interface OracleFile {
  content: FileContent;
  bytes: Uint8Array;
  /** The text the oracle wrote into it (`text`: its words; `blank`: ''), undefined where the deployment decides. */
  text?: string;
}

const BLANK = textPdf([]);
// A page wide enough for any line the oracle writes: text past a page's edge is not on the page.
const WIDE_PAGE = { ...SMALL_PAGE, width: 1200 };
const SCAN = fixture('truncated.png');
const PHOTO = truncatedJpeg();
const CORRUPT = fixture('corrupt.pdf');
const NOT_A_DOCUMENT = fixture('not-a-document.txt');

/**
 * A file of `content`; `words` are the lines a `text` PDF holds.
 * @example oracleFile('text', ['zq0f3a9c1b2dStraße'], 26214400).text // 'zq0f3a9c1b2dStraße'
 */
export function oracleFile(content: FileContent, words: string[], maxFileBytes: number): OracleFile {
  switch (content) {
    case 'text':
      return { content, bytes: textPdf(words, WIDE_PAGE), text: words.join('\n') };
    case 'blank':
      return { content, bytes: BLANK, text: '' };
    case 'damaged':
      return { content, bytes: CORRUPT };
    case 'image':
      return { content, bytes: SCAN };
    case 'photo':
      return { content, bytes: PHOTO };
    case 'pages':
      return { content, bytes: textPdfOfPages(words, DEFAULT_EXTRACTION_LIMITS.maxPdfPages + 1, WIDE_PAGE) };
    case 'refused':
      return { content, bytes: NOT_A_DOCUMENT };
    case 'over-size':
      return { content, bytes: pdfOfSize(maxFileBytes + 1) };
    case 'empty':
      return { content, bytes: new Uint8Array() };
    case 'over-half-size':
      return { content, bytes: pdfOfSize(Math.floor(maxFileBytes / 2) + 1) };
    case 'later-page':
      return { content, bytes: textPdfOfEachPage([[], [], words], WIDE_PAGE), text: words.join('\n') };
  }
}

/**
 * How the twin's run of `file` ends, given how the target's ended: the text the oracle wrote where the
 * contract decides it; the target's verdict where it lets a deployment decide (any failure: a transient
 * fault or a processing limit; an image's OCR).
 */
export function outcomeFor(
  file: OracleFile,
  target: { status?: string; content?: unknown; error?: { code?: string; message?: string } },
): Extraction {
  if (target.status === 'failed') {
    const code = target.error?.code === 'unreadable_document' ? 'unreadable_document' : 'processing_error';
    return { ok: false, error: { code, message: 'as the target' } };
  }
  // "A file that cannot be read fails with unreadable_document": a damaged file the target completed is a difference.
  if (file.content === 'damaged') return { ok: false, error: { code: 'unreadable_document', message: 'damaged' } };
  if (file.text !== undefined) return { ok: true, text: file.text };
  return { ok: true, text: typeof target.content === 'string' ? target.content : '' };
}
