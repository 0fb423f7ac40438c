// A seeded document's file is written here rather than by a PDF library: a seed makes up to a thousand,
// and a library's object model costs milliseconds of the event loop each, which other tenants' requests
// would wait out. This is a few string joins.

const PAGE = { width: 595, height: 842, left: 50, top: 790, leading: 15, size: 11 };
const MAX_LINES = 50;
const MAX_LINE_CHARS = 90;

// A line as a PDF string of the WinAnsi-encoded standard font: Latin-1 is WinAnsi from U+00A0 up, and
// what the font cannot show becomes '?'.
const pdfString = (line: string) =>
  `(${line
    .slice(0, MAX_LINE_CHARS)
    .replace(/[^\x20-\x7E\xA0-\xFF]/g, '?')
    .replace(/[\\()]/g, (c) => `\\${c}`)})`;

/**
 * A one-page PDF whose text layer is `text` (its first 50 lines of at most 90 characters, in Helvetica),
 * so extraction reads back about the same text. Browser-safe.
 * @example const bytes = seedPdf('CORNER BAKERY\nSourdough 4.50');
 */
export function seedPdf(text: string): Uint8Array {
  const lines = text.split('\n', MAX_LINES).map(pdfString);
  const content = `BT /F1 ${PAGE.size} Tf ${PAGE.leading} TL ${PAGE.left} ${PAGE.top} Td ${lines.join(' Tj T* ')} Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
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
  const bytes = new Uint8Array(pdf.length);
  for (let i = 0; i < pdf.length; i++) bytes[i] = pdf.charCodeAt(i);
  return bytes;
}
