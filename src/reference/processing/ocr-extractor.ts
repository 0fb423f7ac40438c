import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { imageSize } from 'image-size';
import Tesseract from 'tesseract.js';
import type { Extraction } from './lifecycle.js';

/** Limits that keep one hostile image from stalling or exhausting the server. */
export interface OcrLimits {
  /** Images declaring more pixels than this are refused before decoding. */
  maxImagePixels: number;
  timeoutMs: number;
  /** How many tesseract workers may run at once. */
  workers: number;
}

/** Reads text from PNG and JPEG images with tesseract.js. */
export interface OcrExtractor {
  /** `budgetMs` (default: the time limit) is what is left of the document's time limit. */
  extract(bytes: Uint8Array, budgetMs?: number): Promise<Extraction>;
  close(): Promise<void>;
}

/**
 * The folder of the English traineddata installed from npm (`@tesseract.js-data/eng`). The
 * `4.0.0_best_int` variant is the LSTM-only model tesseract.js uses by default, so nothing is
 * downloaded at run time.
 */
export function englishLangPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

function unreadable(message: string): Extraction {
  return { ok: false, error: { code: 'unreadable_document', message } };
}

// A PNG is a chain of length-prefixed chunks ending in IEND; walking it finds a cut-off file without
// decoding it (and without the decoder's noise on stderr).
function pngIsComplete(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    offset += 12 + length;
    if (offset > bytes.length) return false;
    if (type === 'IEND') return true;
  }
  return false;
}

type Checked = { ok: true; orientation: number } | { ok: false; refused: Extraction };

// The declared size is read from the header alone, so a decompression bomb (a tiny file that
// declares an enormous image) is refused before tesseract allocates anything for it.
function checkImage(bytes: Uint8Array, maxPixels: number): Checked {
  const refuse = (message: string): Checked => ({ ok: false, refused: unreadable(message) });
  let size: { width?: number; height?: number; orientation?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return refuse('The image header could not be read (the file is damaged or truncated).');
  }
  if ((size as { type?: string }).type === 'png' && !pngIsComplete(bytes)) {
    return refuse('The PNG is truncated: it ends before its last chunk, so the image cannot be decoded.');
  }
  const { width = 0, height = 0, orientation = 1 } = size;
  if (width < 1 || height < 1) return refuse('The image declares no size (the file is damaged).');
  if (width * height > maxPixels) {
    return refuse(`The image is ${width}×${height} pixels; at most ${maxPixels} pixels are processed.`);
  }
  return { ok: true, orientation };
}

// tesseract.js applies the EXIF orientation only when written big-endian (it matches a byte
// pattern), so a little-endian (Android) photo would be read sideways. Skia (through
// @napi-rs/canvas) applies the orientation in either byte order while decoding, so a turned photo is
// handed to tesseract upright, as a PNG without EXIF. image-size read the orientation (both orders).
async function upright(bytes: Uint8Array, orientation: number): Promise<Uint8Array> {
  if (orientation === 1) return bytes;
  // Loaded on first use: the native module would add ~0.2 s to every server start.
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(bytes));
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas.encode('png');
}

/**
 * Starts tesseract workers lazily (so start-up stays fast) and reuses them; a worker that times
 * out is terminated and replaced on the next job.
 * @example const ocr = createOcrExtractor({ maxImagePixels: 50e6, timeoutMs: 60_000, workers: 2 });
 */
export function createOcrExtractor(limits: OcrLimits): OcrExtractor {
  const langPath = englishLangPath();
  const idle: Tesseract.Worker[] = [];
  const live = new Set<Tesseract.Worker>();
  const waiting: Array<(worker: Tesseract.Worker | undefined) => void> = [];
  // Workers alive or starting; bounded by limits.workers.
  let slots = 0;
  let closed = false;

  const start = async (): Promise<Tesseract.Worker> => {
    slots += 1;
    try {
      const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
        langPath,
        gzip: true,
        // 'none' neither reads nor writes a cache file in the working directory.
        cacheMethod: 'none',
        // Without a handler tesseract.js rethrows a failed job (e.g. a truncated PNG) as an
        // uncaught exception; the rejected promise already reports it.
        errorHandler: () => {},
      });
      if (closed) {
        slots -= 1;
        await worker.terminate();
        throw new Error('closed');
      }
      // tesseract.js reads the whole image as one block of text by default; a faded or noisy scan
      // then grinds through every speck for a minute and returns garbage. Automatic page
      // segmentation (the tesseract CLI's default) finds no text there and answers in a second.
      await worker.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.AUTO, debug_file: '/dev/null' } as Partial<Tesseract.WorkerParams>);
      live.add(worker);
      return worker;
    } catch (error) {
      if (!closed) slots -= 1;
      throw error;
    }
  };

  const acquire = async (): Promise<Tesseract.Worker | undefined> => {
    if (closed) return undefined;
    const worker = idle.pop();
    if (worker) return worker;
    if (slots < limits.workers) return start();
    return new Promise((resolve) => waiting.push(resolve));
  };

  const release = (worker: Tesseract.Worker) => {
    const next = waiting.shift();
    if (next) next(worker);
    else idle.push(worker);
  };

  const discard = (worker: Tesseract.Worker) => {
    live.delete(worker);
    slots -= 1;
    void worker.terminate().catch(() => {});
    // Someone waiting gets a fresh worker in the freed slot.
    const next = waiting.shift();
    if (next) start().then(next, () => next(undefined));
  };

  return {
    async extract(bytes, budgetMs = limits.timeoutMs) {
      const checked = checkImage(bytes, limits.maxImagePixels);
      if (!checked.ok) return checked.refused;
      let image: Uint8Array;
      try {
        image = await upright(bytes, checked.orientation);
      } catch {
        return unreadable('The image could not be decoded (the file is damaged or truncated).');
      }
      const worker = await acquire().catch(() => undefined);
      if (!worker) {
        const message = closed ? 'The server is shutting down.' : 'The OCR engine could not start; a retry may succeed.';
        return { ok: false, error: { code: 'processing_error', message } };
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(0, budgetMs))));
      try {
        const result = await Promise.race([worker.recognize(Buffer.from(image)), timeout]);
        if (result === 'timeout') {
          discard(worker);
          return unreadable(`Reading the image took longer than ${limits.timeoutMs / 1000} s, the processing time limit.`);
        }
        release(worker);
        return { ok: true, text: result.data.text.trim() };
      } catch (error) {
        // tesseract.js keeps the worker usable after a decoding error.
        release(worker);
        const message = error instanceof Error ? error.message : String(error);
        if (/read image/i.test(message)) return unreadable('The image could not be decoded (the file is damaged or truncated).');
        return unreadable(`The image could not be read (${message}).`);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      closed = true;
      for (const resolve of waiting.splice(0)) resolve(undefined);
      const workers = [...live];
      live.clear();
      idle.length = 0;
      await Promise.all(workers.map((w) => w.terminate().catch(() => {})));
    },
  };
}
