import type { ContentType } from '@docproc-kit/reference/model.js';
import {
  DEFAULT_EXTRACTION_LIMITS,
  type Extractor,
  explainPdfError,
  FILE_UNREADABLE,
  RUN_BUDGET_GRACE_MS,
  tooManyPages,
  unreadable,
} from '@docproc-kit/reference/processing/extraction.js';
import { checkImage } from '@docproc-kit/reference/processing/image-checks.js';
import type { Extraction } from '@docproc-kit/reference/processing/lifecycle.js';

/** Reads the text of an image for the in-process mock (there is no OCR engine in it); '' by default. */
export type ExtractImageText = (bytes: Uint8Array, contentType: 'image/png' | 'image/jpeg') => string | Promise<string>;

/** The longest a run may take here: the server's extraction time limit, plus the same grace. */
export const IN_PROCESS_RUN_BUDGET_MS = DEFAULT_EXTRACTION_LIMITS.timeoutMs + RUN_BUDGET_GRACE_MS;

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
    if (pdf.numPages > maxPages) return tooManyPages(pdf.numPages, maxPages);
    const { text } = await extractText(pdf, { mergePages: false });
    return {
      ok: true,
      text: text
        .map((page) => page.trim())
        .filter(Boolean)
        .join('\n\n'),
    };
  } catch (error) {
    return { ok: false, error: explainPdfError(error) };
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
export function createTextLayerExtractor({ extractImageText = () => '' }: { extractImageText?: ExtractImageText } = {}): Extractor {
  // The reference server's default page and pixel limits.
  const limits = DEFAULT_EXTRACTION_LIMITS;
  return {
    async extract(source, contentType: ContentType) {
      let bytes: Uint8Array;
      try {
        bytes = await source.bytes();
      } catch {
        return FILE_UNREADABLE;
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
