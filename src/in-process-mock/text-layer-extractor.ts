import type { ContentType } from '../reference/model.js';
import { DEFAULT_EXTRACTION_LIMITS, type Extractor } from '../reference/processing/extraction.js';
import { checkImage } from '../reference/processing/image-checks.js';
import type { Extraction } from '../reference/processing/lifecycle.js';

/** Reads the text of an image for the in-process mock (there is no OCR engine in it); '' by default. */
export type ExtractImageText = (bytes: Uint8Array, contentType: 'image/png' | 'image/jpeg') => string | Promise<string>;

/** The guards of the in-process extractor: the reference server's defaults (see processing/extractor.ts). */
export interface TextLayerLimits {
  maxPdfPages: number;
  maxImagePixels: number;
}

/** The reference server's default page and pixel limits. */
export const IN_PROCESS_LIMITS: TextLayerLimits = DEFAULT_EXTRACTION_LIMITS;
/** The longest a run may take here: the server's extraction time limit, plus the same grace. */
export const IN_PROCESS_RUN_BUDGET_MS = DEFAULT_EXTRACTION_LIMITS.timeoutMs + 2_000;

const unreadable = (message: string): Extraction => ({ ok: false, error: { code: 'unreadable_document', message } });

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
      const checked = checkImage(bytes, limits.maxImagePixels);
      if (!checked.ok) return checked.refused;
      try {
        return { ok: true, text: (await extractImageText(bytes, contentType)).trim() };
      } catch (error) {
        return unreadable(`The image could not be read (${error instanceof Error ? error.message : String(error)}).`);
      }
    },
    close: async () => {},
  };
}
