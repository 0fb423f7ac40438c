import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Tesseract from 'tesseract.js';
import { unreadable } from './extraction.js';
import { checkImage } from './image-checks.js';
import type { Extraction } from './lifecycle.js';
import { isAllocationFailure } from './memory-limit.js';

/**
 * Reads text from images with one tesseract.js worker, started on first use. Runs inside an
 * extraction process; a failed allocation is thrown, everything else is an {@link Extraction}.
 */
export interface OcrReader {
  /** Reads a PNG or JPEG file as uploaded: checked, turned upright, then read. */
  readImage(bytes: Uint8Array, maxImagePixels: number): Promise<Extraction>;
  /** Reads an image this process made (a rendered PDF page), without the checks an upload needs. */
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

// tesseract.js applies the EXIF orientation only when written big-endian (it matches a byte
// pattern), so a little-endian (Android) photo would be read sideways. Skia (through
// @napi-rs/canvas) applies the orientation in either byte order while decoding, so a turned photo is
// handed to tesseract upright, as a PNG without EXIF. image-size read the orientation (both orders).
async function upright(bytes: Uint8Array, orientation: number): Promise<Uint8Array> {
  if (orientation === 1) return bytes;
  // Loaded on first use: most documents never need the native module.
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(bytes));
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas.encode('png');
}

/**
 * One tesseract worker, started on first use and kept for the life of the extraction process (the
 * process is the unit that is limited, killed and replaced; see extraction-pool.ts).
 * @example const ocr = createOcrReader(); await ocr.readImage(bytes, 100e6);
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
      const result = await engine.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
      return { ok: true, text: result.data.text.trim() };
    } catch (error) {
      if (isAllocationFailure(error)) throw error;
      // tesseract.js keeps the worker usable after a decoding error.
      const message = error instanceof Error ? error.message : String(error);
      if (/read image/i.test(message)) return unreadable('The image could not be decoded (the file is damaged or truncated).');
      return unreadable(`The image could not be read (${message}).`);
    }
  };

  return {
    async readImage(bytes, maxImagePixels) {
      const checked = checkImage(bytes, maxImagePixels);
      if (!checked.ok) return checked.refused;
      let image: Uint8Array;
      try {
        image = await upright(bytes, checked.orientation);
      } catch (error) {
        if (isAllocationFailure(error)) throw error;
        return unreadable('The image could not be decoded (the file is damaged or truncated).');
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
