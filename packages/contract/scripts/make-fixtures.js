#!/usr/bin/env -S npx tsx
// Regenerates packages/contract/fixtures/: PDFs with pdf-lib, images by screenshotting printed text in headless
// Chromium (so OCR has real glyphs to read), and the deliberately bad files.
// Needs /usr/bin/chromium (Debian package `chromium`); CHROMIUM_PATH overrides it. Run with tsx
// (`npx tsx packages/contract/scripts/make-fixtures.js`): it launches Chromium as the browser tests do.
// The committed files are the fixtures; this script documents exactly how they were made.
import { writeFile } from 'node:fs/promises';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { launchChromium } from '../../../test/support/chromium.js';

const out = (name) => new URL(`../fixtures/${name}`, import.meta.url);
// A fixed date keeps regenerated PDFs byte-identical.
const FIXED_DATE = new Date('2024-05-02T09:00:00Z');

async function pdf(pages) {
  const doc = await PDFDocument.create();
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  doc.setProducer('docproc-kit fixtures');
  doc.setCreator('docproc-kit fixtures');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    for (const [i, line] of lines.entries()) page.drawText(line, { x: 56, y: 770 - i * 26, size: 16, font, color: rgb(0, 0, 0) });
  }
  return doc.save({ useObjectStreams: false });
}

async function screenshot(browser, lines, type) {
  const page = await browser.newPage({ viewport: { width: 900, height: 60 + lines.length * 70 }, deviceScaleFactor: 1 });
  const html = `<body style="margin:0;background:#fff"><div style="padding:30px 40px;font:bold 44px 'DejaVu Sans',sans-serif;color:#111;line-height:70px">${lines.map((l) => `<div>${l}</div>`).join('')}</div></body>`;
  await page.setContent(html);
  const bytes = await page.screenshot({ type, ...(type === 'jpeg' ? { quality: 85 } : {}) });
  await page.close();
  return bytes;
}

const textPdf = await pdf([
  ['Invoice 2024-031', 'Harbor Logistics GmbH', 'Freight handling, April 2024', 'Reference word: PELICAN', 'Total due: 1,250.00 EUR'],
]);
await writeFile(out('text.pdf'), textPdf);
await writeFile(out('multipage.pdf'), await pdf([['Page one: ALPHA'], ['Page two: BRAVO'], ['Page three: CHARLIE']]));

const browser = await launchChromium();
try {
  const png = await screenshot(browser, ['Corner Bakery', 'Receipt 20931', 'SOURDOUGH LOAF 4.50'], 'png');
  await writeFile(out('scanned.png'), png);
  await writeFile(out('photo.jpg'), await screenshot(browser, ['Meeting notes', 'Project MARIGOLD', 'Budget approved'], 'jpeg'));
  // A real PNG signature and header, then cut off mid-stream: detected as PNG, unreadable to decode.
  await writeFile(out('truncated.png'), png.subarray(0, 300));
} finally {
  await browser.close();
}

// Starts like a PDF (so it is accepted as one) but has no objects, no xref, no trailer.
await writeFile(
  out('corrupt.pdf'),
  Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\nthis is not really a pdf: the body, xref table and trailer are missing\n', 'latin1'),
);
await writeFile(out('not-a-document.txt'), 'Plain text, not a PDF, JPEG or PNG. Uploads of this file are refused with 415.\n');
await writeFile(
  out('text-named.png'),
  'Plain text wearing a .png name: the type is detected from the bytes, so this is refused with 415.\n',
);
console.log('fixtures written');
