// What tesseract is handed to read: an 8-bit grey image this process made, filled in bands.

/**
 * An image is drawn in bands of at most this many pixels, each into a canvas released (or reused)
 * before the next: a 25-megapixel image needs a 16 MB canvas at a time instead of 100 MB.
 */
export const BAND_PIXELS = 4_000_000;

/** A binary PGM (8-bit grey), which tesseract reads directly: no PNG to encode, a quarter of the RGBA bytes. */
export interface GreyImage {
  pgm: Uint8Array;
  width: number;
  height: number;
  /** Rows drawn at a time: a band of at most {@link BAND_PIXELS}. */
  bandRows: number;
  /** Writes the first `rows` rows of RGBA pixels (a band's canvas) as the grey rows from `top` on. */
  putRows(rgba: Uint8Array | Uint8ClampedArray, top: number, rows: number): void;
}

/** A blank grey image of `width` x `height`, filled band by band with {@link GreyImage.putRows}. */
export function greyImage(width: number, height: number): GreyImage {
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const pgm = new Uint8Array(header.length + width * height);
  pgm.set(header);
  return {
    pgm,
    width,
    height,
    bandRows: Math.max(1, Math.floor(BAND_PIXELS / width)),
    putRows(rgba, top, rows) {
      let out = header.length + top * width;
      const end = rows * width * 4;
      // ITU-R BT.601 luma in integers.
      for (let i = 0; i < end; i += 4) pgm[out++] = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
    },
  };
}
