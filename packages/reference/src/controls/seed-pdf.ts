import { type TextPdfLayout, textPdf } from '@docproc-kit/contract/text-pdf.js';

// Seeding writes up to a thousand files in one request, so it uses the string-join writer, never a PDF
// library's object model, whose milliseconds of event loop each other tenants' requests would wait out.

const PAGE: TextPdfLayout = { width: 595, height: 842, left: 50, top: 790, leading: 15, size: 11 };
const MAX_LINES = 50;
const MAX_LINE_CHARS = 90;

/**
 * A one-page A4 PDF whose text layer is `text` (its first 50 lines of at most 90 characters, in Helvetica),
 * so extraction reads back about the same text. Browser-safe.
 * @example const bytes = seedPdf('CORNER BAKERY\nSourdough 4.50');
 */
export function seedPdf(text: string): Uint8Array {
  return textPdf(
    text.split('\n', MAX_LINES).map((line) => line.slice(0, MAX_LINE_CHARS)),
    PAGE,
  );
}
