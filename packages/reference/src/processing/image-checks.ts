import { imageSize } from 'image-size';
import { unreadable } from './extraction.js';
import { jpegCompleteness } from './jpeg-structure.js';
import type { Extraction } from './lifecycle.js';

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// A PNG is a chain of length-prefixed chunks ending in IEND, each with a CRC of its type and data;
// walking it finds a cut-off or damaged file without decoding it (a decoder reads what it can of
// either and paints the rest). A critical chunk (IHDR, PLTE, IDAT, IEND: upper-case first letter)
// that fails its CRC is damage, as libpng judges it; an ancillary one (text, colour hints) is not.
function pngCompleteness(bytes: Uint8Array): 'whole' | 'truncated' | 'damaged' {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const end = offset + 12 + length;
    if (end > bytes.length) return 'truncated';
    const critical = type.charCodeAt(0) < 0x61;
    if (critical && crc32(bytes.subarray(offset + 4, end - 4)) !== view.getUint32(end - 4)) return 'damaged';
    if (type === 'IEND') return 'whole';
    offset = end;
  }
  return 'truncated';
}

// Why a file that is not whole is refused: only a decoder's guess could be read from it.
const REFUSALS: Record<string, string> = {
  'png-truncated': 'The PNG is truncated: it ends before its last chunk, so the image cannot be decoded.',
  'png-damaged': "The PNG is damaged: a chunk's checksum does not match its data, so the image cannot be decoded.",
  'jpg-truncated': 'The JPEG is truncated: it ends before its end-of-image marker, so the image cannot be decoded.',
  'jpg-damaged': 'The JPEG is damaged: its header segments are broken, so the image cannot be decoded.',
};

/** An image that may be read, or why it is refused. */
export type CheckedImage = { ok: true } | { ok: false; refused: Extraction };

/**
 * The checks made before an image is read, from its header alone (so a decompression bomb, a tiny file
 * declaring an enormous image, is refused before anything is allocated for it): a readable header, a
 * size within `maxPixels`, a PNG or JPEG that is neither cut off nor damaged where that shows without
 * decoding. Browser-safe: the in-process mock makes the same
 * checks, with the same messages, as the server's OCR.
 * @example const checked = checkImage(bytes, 100_000_000); if (!checked.ok) return checked.refused;
 */
export function checkImage(bytes: Uint8Array, maxPixels: number): CheckedImage {
  const refuse = (message: string): CheckedImage => ({ ok: false, refused: unreadable(message) });
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    return refuse('The image header could not be read (the file is damaged or truncated).');
  }
  const { width = 0, height = 0 } = size;
  if (width < 1 || height < 1) return refuse('The image declares no size (the file is damaged).');
  if (width * height > maxPixels) {
    return refuse(`The image is ${width}×${height} pixels; at most ${maxPixels} pixels are processed.`);
  }
  const completeness = size.type === 'png' ? pngCompleteness(bytes) : size.type === 'jpg' ? jpegCompleteness(bytes) : 'whole';
  const refusal = REFUSALS[`${size.type}-${completeness}`];
  return refusal ? refuse(refusal) : { ok: true };
}
