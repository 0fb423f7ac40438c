// A one-page PDF written out directly rather than by a PDF library: the conformance suite, the model's
// sequences and seeding each need many small text PDFs, and a library's object model costs both install
// size and milliseconds per file. This is a few string joins, and browser-safe (no Node APIs).

/** Where and how large the lines go on the page (PDF points, origin at the bottom left). */
export interface TextPdfLayout {
  width: number;
  height: number;
  /** The x of every line's start. */
  left: number;
  /** The baseline of the first line. */
  top: number;
  /** The distance from one baseline to the next. */
  leading: number;
  /** The font size. */
  size: number;
}

/** A small landscape page, 18 pt lines 30 pt apart: the conformance suite's files. */
export const SMALL_PAGE: TextPdfLayout = { width: 420, height: 300, left: 40, top: 250, leading: 30, size: 18 };

// A line as a PDF string of the WinAnsi-encoded standard font: Latin-1 is WinAnsi from U+00A0 up, and
// what the font cannot show becomes '?'.
const pdfString = (line: string) => `(${line.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** The page's drawing: `lines` one under the other (nothing for no lines). */
function contentOf(lines: readonly string[], { left, top, leading, size }: TextPdfLayout): string {
  return lines.length ? `BT /F1 ${size} Tf ${leading} TL ${left} ${top} Td ${lines.map(pdfString).join(' Tj T* ')} Tj ET` : '';
}

/**
 * A one-page PDF whose text layer holds `lines` in Helvetica (a standard font, so nothing is embedded),
 * one line under the other; no lines make a blank page (read whole, it holds no text). The bytes are a
 * function of the lines and layout alone.
 * @example const bytes = textPdf(['docproc conformance', 'word zqkxv']);
 */
export function textPdf(lines: readonly string[], layout: TextPdfLayout = SMALL_PAGE): Uint8Array {
  const { width, height } = layout;
  const content = contentOf(lines, layout);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  return writePdf(objects);
}

/**
 * A PDF of `pages` pages, each showing `lines` (one content stream drawn on every page; the size and font
 * are inherited from the page tree): a file over a page limit at a few dozen bytes a page, 43 KiB for 501.
 * @example const bytes = textPdfOfPages(['docproc conformance'], 501);
 */
export function textPdfOfPages(lines: readonly string[], pages: number, layout: TextPdfLayout = SMALL_PAGE): Uint8Array {
  const { width, height } = layout;
  const content = contentOf(lines, layout);
  const kids = Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R >> >> >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>'),
  ];
  return writePdf(objects);
}

/**
 * A PDF of one page per entry of `pages`, each showing its own lines (none: a blank page): a document whose
 * words are only on a later page, which an extraction that reads page 1 alone loses.
 * @example const bytes = textPdfOfEachPage([[], [], ['words on page 3']]);
 */
export function textPdfOfEachPage(pages: ReadonlyArray<readonly string[]>, layout: TextPdfLayout = SMALL_PAGE): Uint8Array {
  const { width, height } = layout;
  // Objects 1-3 are the catalog, the page tree and the font; then each page and its content stream.
  const kids = pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R >> >> >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    ...pages.flatMap((lines, i) => {
      const content = contentOf(lines, layout);
      return [
        `<< /Type /Page /Parent 2 0 R /Contents ${5 + 2 * i} 0 R >>`,
        `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      ];
    }),
  ];
  return writePdf(objects);
}

/** The file around numbered `objects` (1 up): header, bodies, cross-reference table and trailer. */
function writePdf(objects: readonly string[]): Uint8Array {
  // Every character is one byte (Latin-1 at most), so string lengths are byte offsets.
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // ASCII (most files) is its own UTF-8, which the platform encodes natively; Latin-1 a byte at a time.
  if (!NOT_ASCII.test(pdf)) return ascii.encode(pdf);
  const bytes = new Uint8Array(pdf.length);
  for (let i = 0; i < pdf.length; i++) bytes[i] = pdf.charCodeAt(i);
  return bytes;
}

const NOT_ASCII = /[\u0080-\uFFFF]/;
const ascii = new TextEncoder();
