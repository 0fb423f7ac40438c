import { SMALL_PAGE, type TextPdfLayout } from '@docproc-kit/contract/text-pdf.js';
import { fixture, textPdf } from '../kit/files.js';

/**
 * What a generated file is: a PDF whose text the oracle wrote (`text`), a PDF page with none (`blank`), a
 * damaged PDF, a truncated PNG (whose OCR is the deployment's), a file of no accepted type, and one a byte
 * over the deployment's size limit.
 */
export type FileContent = 'text' | 'blank' | 'damaged' | 'image' | 'refused' | 'over-size';

/** A generated file: its bytes, and the text processing must find where the contract decides it. */
export interface OracleFile {
  content: FileContent;
  bytes: Uint8Array;
  /** The text the oracle wrote into it (`text`: its words; `blank`: ''), undefined where the deployment decides. */
  text?: string;
}

const BLANK = textPdf([]);
/** The widest a Helvetica glyph of the text (Latin-1) is, in ems (`W`, `Æ` and the like come close). */
const WIDEST_GLYPH_EM = 1;

/**
 * The suite's small page, widened until every line fits on it: text past the page's edge is outside what
 * it shows, and extractors differ on whether they read it (pdf.js drops it), so a line that ran off the
 * page would make the target's text differ from the oracle's for no fault of the target's.
 */
function pageFor(lines: string[]): TextPdfLayout {
  const longest = Math.max(0, ...lines.map((line) => line.length));
  return { ...SMALL_PAGE, width: Math.max(SMALL_PAGE.width, Math.ceil(2 * SMALL_PAGE.left + longest * SMALL_PAGE.size * WIDEST_GLYPH_EM)) };
}
const SCAN = fixture('truncated.png');
const CORRUPT = fixture('corrupt.pdf');
const NOT_A_DOCUMENT = fixture('not-a-document.txt');

/**
 * A file of `content`; `words` are the lines a `text` PDF holds.
 * @example oracleFile('text', ['conformance-run-oracle-s1zStraße'], 26214400).text // 'conformance-run-oracle-s1zStraße'
 */
export function oracleFile(content: FileContent, words: string[], maxFileBytes: number): OracleFile {
  switch (content) {
    case 'text':
      return { content, bytes: textPdf(words, pageFor(words)), text: words.join('\n') };
    case 'blank':
      return { content, bytes: BLANK, text: '' };
    case 'damaged':
      return { content, bytes: CORRUPT };
    case 'image':
      return { content, bytes: SCAN };
    case 'refused':
      return { content, bytes: NOT_A_DOCUMENT };
    case 'over-size': {
      const bytes = new Uint8Array(maxFileBytes + 1).fill(0x20);
      bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
      return { content, bytes };
    }
  }
}
