import { exifOrientation } from '@docproc-kit/reference/processing/jpeg-structure.js';
import { greyImage } from './grey-image.js';
import { collectGarbage } from './memory-limit.js';

// Runs inside an extraction process (see extraction-child.ts), under its memory limit.

type Matrix = [a: number, b: number, c: number, d: number, e: number, f: number];

// Where a pixel (x, y) of the image as stored lands once it is shown as its EXIF orientation says, as
// a canvas transform (x' = a·x + c·y + e, y' = b·x + d·y + f), for a stored image of width w and
// height h. Orientations 5 to 8 swap width and height.
const UPRIGHT: Record<number, (w: number, h: number) => Matrix> = {
  1: () => [1, 0, 0, 1, 0, 0],
  2: (w) => [-1, 0, 0, 1, w, 0], // mirrored left to right
  3: (w, h) => [-1, 0, 0, -1, w, h], // turned 180°
  4: (_w, h) => [1, 0, 0, -1, 0, h], // mirrored top to bottom
  5: () => [0, 1, 1, 0, 0, 0], // mirrored across the top-left to bottom-right diagonal
  6: (_w, h) => [0, 1, -1, 0, h, 0], // turned 90° clockwise (a phone held upright)
  7: (w, h) => [0, -1, -1, 0, h, w], // mirrored across the other diagonal
  8: (w) => [0, -1, 1, 0, 0, w], // turned 90° anticlockwise
};

/** Why an image could not be decoded, when it was not for lack of memory (that is thrown). */
export class UndecodableImage extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UndecodableImage';
  }
}

/**
 * Decodes an uploaded PNG or JPEG into what tesseract reads: an upright 8-bit grey PGM, the EXIF
 * orientation applied (either byte order, mirrors too), transparency laid on white, and scaled down
 * to at most `maxPixels` (as a scanned PDF page is rendered): tesseract's memory grows with the
 * pixels it reads, past what the extraction memory limit leaves for a 35-megapixel image.
 *
 * The decoder (Skia, through @napi-rs/canvas) is told the orientation is 1: applying it itself, it
 * holds the decoded pixels twice (94 MB more for a 12-megapixel photo, measured), so the turn is
 * made here while the pixels are copied out in bands (16 MB at a time) into the grey image (a
 * quarter of the RGBA bytes). The decoded pixels are released before this returns, so tesseract
 * reads a 12 MB grey image with nothing else of the photo left. A failed allocation is thrown (Skia
 * aborts the process on some, which the pool names as the memory limit too); a file the decoder
 * refuses is {@link UndecodableImage}.
 * @example const pgm = await readUprightGrey(jpegBytes, 25e6); await tesseract.recognize(Buffer.from(pgm));
 */
export async function readUprightGrey(bytes: Uint8Array, maxPixels: number): Promise<Uint8Array> {
  // Loaded on first use: a text PDF never needs the native module.
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const orientation = exifOrientation(bytes);
  let source = bytes;
  if (orientation && orientation.value !== 1) {
    // A copy (a Buffer's slice() would be the same memory), its orientation set to 1.
    source = new Uint8Array(bytes);
    new DataView(source.buffer).setUint16(orientation.at, 1, orientation.littleEndian);
  }
  let image: Awaited<ReturnType<typeof loadImage>>;
  try {
    image = await loadImage(Buffer.from(source.buffer, source.byteOffset, source.byteLength));
  } catch (error) {
    throw new UndecodableImage(error instanceof Error ? error.message : String(error));
  }
  try {
    const stored = { width: image.width, height: image.height };
    if (stored.width < 1 || stored.height < 1) throw new UndecodableImage('no pixels decoded');
    const turn = orientation?.value ?? 1;
    const scale = Math.min(1, Math.sqrt(maxPixels / (stored.width * stored.height)));
    const [width, height] = turn >= 5 ? [stored.height, stored.width] : [stored.width, stored.height];
    const grey = greyImage(Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(height * scale)));
    const [a, b, c, d, e, f] = UPRIGHT[turn]!(stored.width, stored.height).map((n) => n * scale) as Matrix;
    const band = createCanvas(grey.width, Math.min(grey.bandRows, grey.height));
    const context = band.getContext('2d');
    for (let top = 0; top < grey.height; top += grey.bandRows) {
      context.setTransform(1, 0, 0, 1, 0, 0);
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, band.width, band.height);
      // The band's rows of the upright image: the stored image turned, then shifted up by `top`.
      context.setTransform(a, b, c, d, e, f - top);
      context.drawImage(image, 0, 0);
      grey.putRows(band.data(), top, Math.min(grey.bandRows, grey.height - top));
    }
    return grey.pgm;
  } finally {
    // Frees the decoded pixels now rather than when the collector gets to them.
    image.src = new Uint8Array(0);
    collectGarbage();
  }
}
