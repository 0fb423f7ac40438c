import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { unreadable } from '@docproc-kit/reference/processing/extraction.js';
import { checkImage } from '@docproc-kit/reference/processing/image-checks.js';
import type { Extraction } from '@docproc-kit/reference/processing/lifecycle.js';
import Tesseract from 'tesseract.js';
import { isAllocationFailure, MemoryLimitReached, saysAllocationFailed } from './memory-limit.js';
import { readUprightGrey, UndecodableImage } from './upright-image.js';

/**
 * Reads text from images with one tesseract.js worker, started on first use. Runs inside an
 * extraction process; a failed allocation is thrown, everything else is an {@link Extraction}.
 */
export interface OcrReader {
  /**
   * Reads a PNG or JPEG file as uploaded: checked (refused above `maxImagePixels`), decoded upright
   * to grey and scaled down to at most `maxRenderPixels` (see upright-image.ts), then read.
   */
  readImage(bytes: Uint8Array, limits: { maxImagePixels: number; maxRenderPixels: number }): Promise<Extraction>;
  /** Reads a grey PGM this process made (a rendered PDF page), without the checks an upload needs. */
  readRendered(image: Uint8Array): Promise<Extraction>;
  /** Ends the worker, giving back its memory (tesseract's wasm memory never shrinks); the next read starts a new one. */
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

// leptonica, inside tesseract's wasm, reports an allocation that failed ("pixdata_malloc fail for
// data", "calloc fail for buf") on stderr and returns nothing, and tesseract carries on without it:
// the image would read as empty text. The worker thread's stderr is piped through this process's
// own, where it is watched (and passed on).
let allocationFailed = false;
let watching = false;
function leptonicaAllocationFailed(): boolean {
  if (!watching) {
    watching = true;
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      if (saysAllocationFailed(String(chunk))) allocationFailed = true;
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
  }
  const failed = allocationFailed;
  allocationFailed = false;
  return failed;
}

/**
 * One tesseract worker, started on first use and kept for the life of the extraction process (the
 * process is the unit that is limited, killed and replaced; see extraction-pool.ts).
 * @example const ocr = createOcrReader(); await ocr.readImage(bytes, { maxImagePixels: 100e6, maxRenderPixels: 25e6 });
 */
export function createOcrReader(): OcrReader {
  let started: Promise<Tesseract.Worker> | undefined;

  const worker = () =>
    (started ??= (async () => {
      const created = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
        langPath: englishLangPath(),
        gzip: true,
        // 'none' neither reads nor writes a cache file in the working directory.
        cacheMethod: 'none',
        // Without a handler tesseract.js rethrows a failed job (e.g. a truncated PNG) as an
        // uncaught exception; the rejected promise already reports it.
        errorHandler: () => {},
      });
      // tesseract.js reads the whole image as one block of text by default; a faded or noisy scan
      // then grinds through every speck for a minute and returns garbage. Automatic page
      // segmentation (the tesseract CLI's default) finds no text there and answers in a second.
      await created.setParameters({
        tessedit_pageseg_mode: Tesseract.PSM.AUTO,
        debug_file: '/dev/null',
      } as Partial<Tesseract.WorkerParams>);
      return created;
    })());

  const recognize = async (image: Uint8Array): Promise<Extraction> => {
    let engine: Tesseract.Worker;
    try {
      engine = await worker();
    } catch {
      started = undefined;
      return { ok: false, error: { code: 'processing_error', message: 'The OCR engine could not start; a retry may succeed.' } };
    }
    try {
      leptonicaAllocationFailed();
      const result = await engine.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
      // The worker thread's stderr reaches this thread's as messages of their own: one more turn.
      await new Promise((resolve) => setImmediate(resolve));
      if (leptonicaAllocationFailed()) throw new MemoryLimitReached();
      return { ok: true, text: result.data.text.trim() };
    } catch (error) {
      if (isAllocationFailure(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      // The image is a grey PGM this process made, which leptonica always reads, unless the wasm
      // memory could not grow to hold it: tesseract.js says only that it could not read the image.
      if (/read image/i.test(message)) throw new MemoryLimitReached();
      // tesseract.js keeps the worker usable after any other error.
      return unreadable(`The image could not be read (${message}).`);
    }
  };

  return {
    async readImage(bytes, { maxImagePixels, maxRenderPixels }) {
      const checked = checkImage(bytes, maxImagePixels);
      if (!checked.ok) return checked.refused;
      let image: Uint8Array;
      try {
        image = await readUprightGrey(bytes, maxRenderPixels);
      } catch (error) {
        if (!(error instanceof UndecodableImage)) throw error;
        return unreadable(`The image could not be decoded (${error.message}); the file is damaged or not a PNG or JPEG.`);
      }
      return recognize(image);
    },
    readRendered: recognize,
    async close() {
      const running = started;
      started = undefined;
      await (await running?.catch(() => undefined))?.terminate().catch(() => {});
    },
  };
}
