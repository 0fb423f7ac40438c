import { imageSize } from 'image-size';
import { unreadable } from './extraction.js';
import type { Extraction } from './lifecycle.js';

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

/** An image that may be read, with its EXIF orientation (1: upright), or why it is refused. */
export type CheckedImage = { ok: true; orientation: number } | { ok: false; refused: Extraction };

/**
 * The checks made before an image is read, from its header alone (so a decompression bomb, a tiny file
 * declaring an enormous image, is refused before anything is allocated for it): a readable header, a
 * PNG that is not cut off, a size within `maxPixels`. Browser-safe: the in-process mock makes the same
 * checks, with the same messages, as the server's OCR.
 * @example const checked = checkImage(bytes, 100_000_000); if (!checked.ok) return checked.refused;
 */
export function checkImage(bytes: Uint8Array, maxPixels: number): CheckedImage {
  const refuse = (message: string): CheckedImage => ({ ok: false, refused: unreadable(message) });
  let size: { width?: number; height?: number; orientation?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    return refuse('The image header could not be read (the file is damaged or truncated).');
  }
  if (size.type === 'png' && !pngIsComplete(bytes)) {
    return refuse('The PNG is truncated: it ends before its last chunk, so the image cannot be decoded.');
  }
  const { width = 0, height = 0, orientation = 1 } = size;
  if (width < 1 || height < 1) return refuse('The image declares no size (the file is damaged).');
  if (width * height > maxPixels) {
    return refuse(`The image is ${width}×${height} pixels; at most ${maxPixels} pixels are processed.`);
  }
  return { ok: true, orientation };
}
