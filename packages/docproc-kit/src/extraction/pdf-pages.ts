import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { createIsomorphicCanvasFactory, getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { greyImage } from './grey-image.js';
import { collectGarbage, MemoryLimitReached, saysAllocationFailed } from './memory-limit.js';

// Runs inside an extraction process (see extraction-child.ts): pdf.js parses on the calling thread
// and cannot be interrupted, so the process around it is what the time and memory limits stop.

/** Scanners and OCR engines work at 200-300 dpi; 200 keeps a page's OCR to seconds. */
export const RENDER_DPI = 200;

/** One page of a PDF: its text layer, nothing at all (a blank page), or, when it has no text but draws something, a grey image of it for OCR. */
export type PdfPage = { kind: 'text'; text: string } | { kind: 'blank' } | { kind: 'drawn'; render: () => Promise<Uint8Array> };

/** An open PDF, read one page at a time. */
export interface PdfFile {
  pages: number;
  /**
   * Hands page `number` (1-based) to `use` and releases it (its parsed content, fonts and images)
   * once `use` is done. Throws {@link MemoryLimitReached} when pdf.js could not allocate what the page needs.
   */
  withPage<T>(number: number, use: (page: PdfPage) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// pdf.js carries on past errors in a page's content (a damaged font, a broken operator) and only
// warns, which is right for damaged files, but a stream that could not be inflated for lack of memory
// would then read as an empty page. Its warnings go to console.log as "Warning: ..." (at verbosity
// 1), so they are watched here, and dropped as before (at verbosity 0 it printed none); anything else
// logged goes through.
let allocationFailed = false;
let watching = false;
function watchPdfjsWarnings(): void {
  if (watching) return;
  watching = true;
  const log = console.log.bind(console);
  console.log = (...args: unknown[]) => {
    if (typeof args[0] !== 'string' || !args[0].startsWith('Warning: ')) return log(...args);
    if (saysAllocationFailed(args[0])) allocationFailed = true;
  };
}
function throwIfAllocationFailed(): void {
  if (!allocationFailed) return;
  allocationFailed = false;
  throw new MemoryLimitReached();
}

/** Where pdf.js finds the data it loads on demand, all from the pdfjs-dist npm package (offline). */
function pdfjsData() {
  const require = createRequire(import.meta.url);
  const dist = dirname(require.resolve('pdfjs-dist/package.json'));
  // pdf.js in Node reads these with fs, so they are paths (with a trailing slash), not URLs.
  return { cMapUrl: join(dist, 'cmaps') + sep, standardFontDataUrl: join(dist, 'standard_fonts') + sep, wasmUrl: join(dist, 'wasm') + sep };
}

const canvasImport = () => import('@napi-rs/canvas');
type CanvasAndContext = { canvas: Canvas; context: SKRSContext2D };
interface CanvasFactory {
  create(width: number, height: number): CanvasAndContext;
  reset(canvasAndContext: CanvasAndContext, width: number, height: number): void;
  destroy(canvasAndContext: CanvasAndContext): void;
}
let RealCanvasFactory: (new (options: object) => CanvasFactory) | undefined;

// Loading the canvas (a native module) costs a text-only PDF ~0.2 s, so it waits for the first page
// to render; pdf.js creates canvases only while rendering.
class LazyCanvasFactory implements CanvasFactory {
  #real: CanvasFactory | undefined;
  constructor(private readonly options: object) {}
  get real() {
    this.#real ??= new RealCanvasFactory!(this.options);
    return this.#real;
  }
  create(width: number, height: number) {
    return this.real.create(width, height);
  }
  reset(canvasAndContext: CanvasAndContext, width: number, height: number) {
    this.real.reset(canvasAndContext, width, height);
  }
  destroy(canvasAndContext: CanvasAndContext) {
    this.real.destroy(canvasAndContext);
  }
}

let drawOps: Set<number> | undefined;
async function drawingOperators(): Promise<Set<number>> {
  if (drawOps) return drawOps;
  const { OPS } = await getResolvedPDFJS();
  drawOps = new Set([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintSolidColorImageMask,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageMaskXObjectRepeat,
    OPS.constructPath,
    OPS.shadingFill,
  ]);
  return drawOps;
}

/**
 * Opens a PDF with pdf.js (unpdf's build), with the CMaps and standard fonts of `pdfjs-dist`. Pages
 * are read one at a time: a page's text layer; a page without one that draws something is rendered
 * (at 200 dpi, scaled down to at most `maxRenderPixels`) only when asked, and its canvas is released
 * before the next page. Throws pdf.js's error when the file cannot be opened.
 * @example const pdf = await openPdf(bytes, { maxRenderPixels: 25e6 }); const first = await pdf.page(1);
 */
export async function openPdf(bytes: Uint8Array, { maxRenderPixels }: { maxRenderPixels: number }): Promise<PdfFile> {
  watchPdfjsWarnings();
  allocationFailed = false;
  const ops = await drawingOperators();
  const pdf = await getDocumentProxy(bytes, {
    verbosity: 1, // warnings, which watchPdfjsWarnings reads
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    CanvasFactory: LazyCanvasFactory,
    ...pdfjsData(),
    cMapPacked: true,
  } as Parameters<typeof getDocumentProxy>[1]);
  throwIfAllocationFailed();

  const render = async (page: Awaited<ReturnType<typeof pdf.getPage>>): Promise<Uint8Array> => {
    RealCanvasFactory ??= (await createIsomorphicCanvasFactory(canvasImport)) as unknown as typeof RealCanvasFactory;
    const { width, height } = page.getViewport({ scale: 1 });
    const scale = Math.min(RENDER_DPI / 72, Math.sqrt(maxRenderPixels / (width * height)));
    const viewport = page.getViewport({ scale });
    const pixelsWide = Math.max(1, Math.floor(viewport.width));
    const pixelsHigh = Math.max(1, Math.floor(viewport.height));
    const factory = new RealCanvasFactory!({});
    // In bands, each into a canvas of its own released before the next; an A4 page at 200 dpi is one band.
    const grey = greyImage(pixelsWide, pixelsHigh);
    for (let top = 0; top < pixelsHigh; top += grey.bandRows) {
      const rows = Math.min(grey.bandRows, pixelsHigh - top);
      const band = factory.create(pixelsWide, rows);
      try {
        // The band's rows of the page: the page drawn shifted up by `top` pixels.
        await page.render({
          canvas: band.canvas,
          canvasContext: band.context,
          viewport,
          transform: [1, 0, 0, 1, 0, -top],
        } as unknown as Parameters<typeof page.render>[0]).promise;
        throwIfAllocationFailed();
        // data() is the canvas's own RGBA pixels, not a copy.
        grey.putRows(band.canvas.data(), top, rows);
      } finally {
        factory.destroy(band);
      }
      if (rows < pixelsHigh) collectGarbage();
    }
    return grey.pgm;
  };

  return {
    pages: pdf.numPages,
    async withPage(number, use) {
      const page = await pdf.getPage(number);
      try {
        const content = await page.getTextContent();
        throwIfAllocationFailed();
        // Joined as unpdf's extractText joins a page's items.
        const text = (content.items as Array<{ str?: string; hasEOL?: boolean }>)
          .map((item) => (item.str != null ? item.str + (item.hasEOL ? '\n' : '') : ''))
          .join('')
          .trim();
        if (text) return await use({ kind: 'text', text });
        const { fnArray } = await page.getOperatorList();
        throwIfAllocationFailed();
        if (!(fnArray as number[]).some((op) => ops.has(op))) return await use({ kind: 'blank' });
        return await use({ kind: 'drawn', render: () => render(page) });
      } finally {
        page.cleanup();
      }
    },
    async close() {
      await pdf.destroy().catch(() => {});
    },
  };
}
