import { imageSize } from 'image-size';
import type { ContentType } from '../reference/model.js';
import type { Extractor } from '../reference/processing/extractor.js';
import type { Extraction } from '../reference/processing/lifecycle.js';

/** Reads the text of an image for the in-process mock (there is no OCR engine in it); '' by default. */
export type ExtractImageText = (bytes: Uint8Array, contentType: 'image/png' | 'image/jpeg') => string | Promise<string>;

/** The guards of the in-process extractor: the reference server's defaults (see processing/extractor.ts). */
export interface TextLayerLimits {
  maxPdfPages: number;
  maxImagePixels: number;
}

/** The reference server's default page and pixel limits, and its longest run (60 s extraction limit + 2 s grace). */
export const IN_PROCESS_LIMITS: TextLayerLimits = { maxPdfPages: 500, maxImagePixels: 100_000_000 };
export const IN_PROCESS_RUN_BUDGET_MS = 62_000;

const unreadable = (message: string): Extraction => ({ ok: false, error: { code: 'unreadable_document', message } });

// A PNG is a chain of length-prefixed chunks ending in IEND: a cut-off file is found without decoding it.
function pngIsComplete(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let offset = 8; offset + 12 <= bytes.length; ) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    offset += 12 + length;
    if (offset > bytes.length) return false;
    if (type === 'IEND') return true;
  }
  return false;
}

// The checks the server makes before its OCR (header readable, not truncated, within the pixel limit),
// with its messages, so a damaged image fails here as it fails there.
function checkImage(bytes: Uint8Array, maxPixels: number): Extraction | undefined {
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    return unreadable('The image header could not be read (the file is damaged or truncated).');
  }
  if (size.type === 'png' && !pngIsComplete(bytes)) {
    return unreadable('The PNG is truncated: it ends before its last chunk, so the image cannot be decoded.');
  }
  const { width = 0, height = 0 } = size;
  if (width < 1 || height < 1) return unreadable('The image declares no size (the file is damaged).');
  if (width * height > maxPixels) return unreadable(`The image is ${width}×${height} pixels; at most ${maxPixels} pixels are processed.`);
  return undefined;
}

// Each page's text layer with pdf.js (unpdf's build, which runs in browsers and Node alike), on this
// thread: there is no worker to contain a hostile PDF, which is fine for a mock inside a test or a page.
async function readPdf(bytes: Uint8Array, maxPages: number): Promise<Extraction> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // A copy: pdf.js takes over (detaches) the buffer it is given.
    pdf = await getDocumentProxy(new Uint8Array(bytes), {
      verbosity: 0,
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
    });
    if (pdf.numPages > maxPages) return unreadable(`The PDF has ${pdf.numPages} pages; at most ${maxPages} pages are processed.`);
    const { text } = await extractText(pdf, { mergePages: false });
    return {
      ok: true,
      text: text
        .map((page) => page.trim())
        .filter(Boolean)
        .join('\n\n'),
    };
  } catch (error) {
    const { name, message } = error as { name?: string; message?: string };
    if (name === 'PasswordException') return unreadable('The PDF is password-protected, so its text cannot be read.');
    if (name === 'InvalidPDFException') return unreadable('The PDF could not be parsed (its structure is damaged or incomplete).');
    return unreadable(`The PDF could not be read (${message ?? String(error)}).`);
  } finally {
    await pdf?.destroy().catch(() => {});
  }
}

/**
 * The extractor of the in-process mock, browser-safe: a PDF's text layer through pdf.js (pages without one,
 * scans, read as empty: no OCR), an image's text from `extractImageText` (empty by default) once it passed
 * the server's image checks. pdf.js is loaded on the first PDF.
 * @example const extractor = createTextLayerExtractor({ extractImageText: () => 'RECEIPT 42' });
 */
export function createTextLayerExtractor({
  extractImageText = () => '',
  limits = IN_PROCESS_LIMITS,
}: {
  extractImageText?: ExtractImageText;
  limits?: TextLayerLimits;
} = {}): Extractor {
  return {
    async extract(source, contentType: ContentType) {
      let bytes: Uint8Array;
      try {
        bytes = await source.bytes();
      } catch {
        return { ok: false, error: { code: 'processing_error', message: 'The stored file could not be read; a retry may succeed.' } };
      }
      if (contentType === 'application/pdf') return readPdf(bytes, limits.maxPdfPages);
      const refused = checkImage(bytes, limits.maxImagePixels);
      if (refused) return refused;
      try {
        return { ok: true, text: (await extractImageText(bytes, contentType)).trim() };
      } catch (error) {
        return unreadable(`The image could not be read (${error instanceof Error ? error.message : String(error)}).`);
      }
    },
    close: async () => {},
  };
}
