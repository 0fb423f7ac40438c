import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DocumentError } from '../model.js';

/** Limits that keep one hostile PDF from stalling or exhausting the server. */
export interface PdfLimits {
  maxPages: number;
  timeoutMs: number;
  /** Heap limit of the worker that parses the PDF, in MB. */
  maxMemoryMb: number;
  /** A page rendered for OCR has at most this many pixels (it is scaled down to fit). */
  maxRenderPixels: number;
}

/** One page of a PDF: its text layer, or, when it has none but draws something, a PNG of it for OCR. */
export type PdfPage = { text: string } | { image: Uint8Array };

/** What reading a PDF gave: its pages in order, or why it could not be read. */
export type PdfReading = { ok: true; pages: PdfPage[] } | { ok: false; error: DocumentError };

/** Reads the pages of PDFs, each in a worker thread that can be killed. */
export interface PdfExtractor {
  extract(bytes: Uint8Array): Promise<PdfReading>;
  close(): Promise<void>;
}

/** Scanners and OCR engines work at 200-300 dpi; 200 keeps a page's OCR to seconds. */
export const RENDER_DPI = 200;

type Reply =
  | { ok: true; pages: PdfPage[] }
  | { ok: false; kind: 'pages'; pages: number }
  | { ok: false; kind: 'error'; name: string; message: string };

/** Where pdf.js finds the data it loads on demand, all from the pdfjs-dist npm package (offline). */
interface PdfjsData {
  unpdfUrl: string;
  canvasUrl: string;
  /** Folders, each with a trailing slash, as pdf.js requires. */
  cMapUrl: string;
  standardFontDataUrl: string;
  wasmUrl: string;
}

function pdfjsData(): PdfjsData {
  const require = createRequire(import.meta.url);
  const dist = dirname(require.resolve('pdfjs-dist/package.json'));
  return {
    unpdfUrl: pathToFileURL(require.resolve('unpdf')).href,
    canvasUrl: pathToFileURL(require.resolve('@napi-rs/canvas')).href,
    // pdf.js in Node reads these with fs, so they are paths, not URLs.
    cMapUrl: join(dist, 'cmaps') + sep,
    standardFontDataUrl: join(dist, 'standard_fonts') + sep,
    wasmUrl: join(dist, 'wasm') + sep,
  };
}

// pdf.js parses on the calling thread and cannot be interrupted, so it runs in a worker: a time
// limit can terminate it and a heap limit contains memory bombs. The worker is eval'd JavaScript so
// the same code runs under tsx, vitest and the compiled dist/ without a TypeScript loader.
// A page without a text layer (a scan) is rendered with @napi-rs/canvas for OCR, unless it draws
// nothing at all (a blank page); pages that only draw text are never rendered.
function workerSource(data: PdfjsData): string {
  return `
const { parentPort } = require('node:worker_threads');
const data = ${JSON.stringify(data)};
const canvasImport = () => import(data.canvasUrl);
let unpdf, drawOps, RealCanvasFactory;
// Loading the canvas (a native module) costs a text-only PDF ~0.2 s, so it waits for the first page
// to render; pdf.js creates canvases only while rendering.
class LazyCanvasFactory {
  constructor(options) { this.options = options; }
  get real() { return (this.instance ??= new RealCanvasFactory(this.options)); }
  create(width, height) { return this.real.create(width, height); }
  reset(canvasAndContext, width, height) { return this.real.reset(canvasAndContext, width, height); }
  destroy(canvasAndContext) { return this.real.destroy(canvasAndContext); }
}
parentPort.on('message', async ({ bytes, maxPages, maxRenderPixels, dpi }) => {
  let pdf;
  try {
    unpdf ??= await import(data.unpdfUrl);
    if (!drawOps) {
      const { OPS } = await unpdf.getResolvedPDFJS();
      drawOps = new Set([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintSolidColorImageMask, OPS.paintImageXObjectRepeat, OPS.paintImageMaskXObjectGroup, OPS.paintInlineImageXObjectGroup, OPS.paintImageMaskXObjectRepeat, OPS.constructPath, OPS.shadingFill]);
    }
    pdf = await unpdf.getDocumentProxy(bytes, {
      verbosity: 0, isEvalSupported: false, useSystemFonts: false, disableFontFace: true, CanvasFactory: LazyCanvasFactory,
      cMapUrl: data.cMapUrl, cMapPacked: true, standardFontDataUrl: data.standardFontDataUrl, wasmUrl: data.wasmUrl,
    });
    if (pdf.numPages > maxPages) return parentPort.postMessage({ ok: false, kind: 'pages', pages: pdf.numPages });
    const { text } = await unpdf.extractText(pdf, { mergePages: false });
    const pages = [];
    const transfer = [];
    for (let number = 1; number <= text.length; number++) {
      const words = text[number - 1].trim();
      if (words) { pages.push({ text: words }); continue; }
      const page = await pdf.getPage(number);
      const { fnArray } = await page.getOperatorList();
      if (!fnArray.some((op) => drawOps.has(op))) { pages.push({ text: '' }); continue; }
      const { width, height } = page.getViewport({ scale: 1 });
      const scale = Math.min(dpi / 72, Math.sqrt(maxRenderPixels / (width * height)));
      RealCanvasFactory ??= await unpdf.createIsomorphicCanvasFactory(canvasImport);
      const image = new Uint8Array(await unpdf.renderPageAsImage(pdf, number, { canvasImport, scale }));
      pages.push({ image });
      transfer.push(image.buffer);
    }
    parentPort.postMessage({ ok: true, pages }, transfer);
  } catch (error) {
    parentPort.postMessage({ ok: false, kind: 'error', name: String(error && error.name), message: String(error && error.message) });
  } finally {
    if (pdf) await pdf.destroy().catch(() => {});
  }
});`;
}

function unreadable(message: string): PdfReading {
  return { ok: false, error: { code: 'unreadable_document', message } };
}

function explain(reply: Exclude<Reply, { ok: true }>, limits: PdfLimits): PdfReading {
  if (reply.kind === 'pages') return unreadable(`The PDF has ${reply.pages} pages; at most ${limits.maxPages} pages are processed.`);
  if (reply.name === 'PasswordException') return unreadable('The PDF is password-protected, so its text cannot be read.');
  if (reply.name === 'InvalidPDFException') return unreadable('The PDF could not be parsed (its structure is damaged or incomplete).');
  return unreadable(`The PDF could not be read (${reply.message}).`);
}

/**
 * Starts worker threads lazily, one per concurrent PDF, reusing idle ones; a worker that times out
 * or dies is thrown away.
 * @example const pdf = createPdfExtractor({ maxPages: 500, timeoutMs: 60_000, maxMemoryMb: 512, maxRenderPixels: 25e6 });
 */
export function createPdfExtractor(limits: PdfLimits): PdfExtractor {
  const source = workerSource(pdfjsData());
  const idle: Worker[] = [];
  const busy = new Set<Worker>();
  let closed = false;

  const spawn = () => {
    const worker = new Worker(source, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb },
      stdout: true,
      stderr: true,
    });
    // pdf.js chatters about damaged files; that is expected here, so it is read and dropped.
    worker.stdout.resume();
    worker.stderr.resume();
    return worker;
  };

  return {
    extract(bytes) {
      if (closed) return Promise.resolve({ ok: false, error: { code: 'processing_error', message: 'The server is shutting down.' } });
      const worker = idle.pop() ?? spawn();
      busy.add(worker);
      return new Promise<PdfReading>((resolve) => {
        const settle = (result: PdfReading, keep: boolean) => {
          clearTimeout(timer);
          worker.off('message', onMessage).off('error', onError).off('exit', onExit);
          busy.delete(worker);
          if (keep && !closed) idle.push(worker);
          else void worker.terminate();
          resolve(result);
        };
        const onMessage = (reply: Reply) => settle(reply.ok ? reply : explain(reply, limits), true);
        const onError = (error: Error & { code?: string }) =>
          settle(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? unreadable('Reading the PDF needed more memory than the processing limits allow.')
              : { ok: false, error: { code: 'processing_error', message: 'The PDF reader failed unexpectedly; a retry may succeed.' } },
            false,
          );
        const onExit = () =>
          settle(
            { ok: false, error: { code: 'processing_error', message: 'The PDF reader stopped unexpectedly; a retry may succeed.' } },
            false,
          );
        const timer = setTimeout(
          () => settle(unreadable(`Reading the PDF took longer than ${limits.timeoutMs / 1000} s, the processing time limit.`), false),
          limits.timeoutMs,
        );
        worker.on('message', onMessage).on('error', onError).on('exit', onExit);
        // A copy is transferred so the caller's buffer stays usable.
        const copy = new Uint8Array(bytes);
        worker.postMessage({ bytes: copy, maxPages: limits.maxPages, maxRenderPixels: limits.maxRenderPixels, dpi: RENDER_DPI }, [
          copy.buffer,
        ]);
      });
    },
    async close() {
      closed = true;
      const all = [...idle, ...busy];
      idle.length = 0;
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
