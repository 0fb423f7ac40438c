import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { SMALL_PAGE, type TextPdfLayout, textPdf, textPdfOfEachPage, textPdfOfPages } from './text-pdf.js';

// Read back by pdf.js (unpdf), as the server's extraction reads an uploaded PDF's text layer.
async function read(bytes: Uint8Array): Promise<{ text: string; pages: number; width: number; height: number }> {
  const pdf = await getDocumentProxy(bytes.slice());
  const page = await pdf.getPage(1);
  const [, , width, height] = page.view as [number, number, number, number];
  const { text } = await extractText(pdf, { mergePages: true });
  return { text, pages: pdf.numPages, width, height };
}

const A4: TextPdfLayout = { width: 595, height: 842, left: 50, top: 790, leading: 15, size: 11 };

describe('textPdf writes a one-page PDF whose text layer pdf.js reads back', () => {
  it.each([
    ['two lines on the small page', ['docproc conformance', 'word zqkxvbnm'], SMALL_PAGE],
    ['lines on an A4 page', ['CORNER BAKERY', 'Sourdough 4.50', 'Total 9.00'], A4],
    ['parentheses and backslashes, escaped', ['(a) \\ b)'], SMALL_PAGE],
    ['Latin-1 letters, which WinAnsi shows', ['Café crème'], SMALL_PAGE],
  ])('%s', async (_what, lines, layout) => {
    const { text, pages, width, height } = await read(textPdf(lines, layout));
    expect(pages).toBe(1);
    expect([width, height]).toEqual([layout.width, layout.height]);
    for (const line of lines) expect(text).toContain(line);
  });

  it('shows what Helvetica cannot as "?", and never breaks the file', async () => {
    const { text } = await read(textPdf(['snow ☃ and 日本']));
    expect(text).toContain('snow ? and ??');
  });

  it('writes a blank page when there are no lines: read whole, it holds no text', async () => {
    const { text, pages } = await read(textPdf([]));
    expect(pages).toBe(1);
    expect(text.trim()).toBe('');
  });

  it('makes the same bytes for the same lines (no dates, no ids)', () => {
    expect(textPdf(['same'])).toEqual(textPdf(['same']));
    expect(new TextDecoder().decode(textPdf(['x']).slice(0, 8))).toBe('%PDF-1.4');
  });
});

describe('textPdfOfPages writes a PDF of many pages at a few dozen bytes each', () => {
  it('is read back by pdf.js as that many pages, each showing the lines', async () => {
    const bytes = textPdfOfPages(['page words'], 501);
    const { text, pages, width, height } = await read(bytes);
    expect(pages).toBe(501);
    expect([width, height]).toEqual([SMALL_PAGE.width, SMALL_PAGE.height]);
    expect(text.split('page words')).toHaveLength(502);
    expect(bytes.length).toBeLessThan(48 * 1024);
  });
});

describe('textPdfOfEachPage writes a PDF whose pages each show their own lines', () => {
  it('is read back by pdf.js as one page per entry, blank pages holding nothing and the words on their own page', async () => {
    const pdf = await getDocumentProxy(textPdfOfEachPage([[], [], ['later page words']]));
    const { text } = await extractText(pdf, { mergePages: false });
    expect(pdf.numPages).toBe(3);
    expect(text.map((page) => page.trim())).toEqual(['', '', 'later page words']);
  });
});
