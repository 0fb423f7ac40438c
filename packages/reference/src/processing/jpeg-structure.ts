// What the markers of a JPEG say, read without decoding it. Browser-safe (the in-process mock makes
// the same checks as the server).

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP1 = 0xe1;
const ORIENTATION_TAG = 0x0112;
const SHORT = 3;

/** A marker segment before the image data: its marker byte, and where its payload lies in the file. */
interface Segment {
  marker: number;
  /** Offset of the payload (after the two length bytes). */
  start: number;
  end: number;
}

/** The segments of a JPEG up to and including its first scan header, or why they cannot be read. */
type Segments = { ok: true; segments: Segment[] } | { ok: false; why: 'truncated' | 'damaged' };

function readSegments(bytes: Uint8Array): Segments {
  const segments: Segment[] = [];
  let offset = 2;
  while (true) {
    // A marker may be preceded by any number of 0xFF fill bytes.
    while (offset < bytes.length && bytes[offset] === 0xff && bytes[offset + 1] === 0xff) offset += 1;
    if (offset + 4 > bytes.length) return { ok: false, why: 'truncated' };
    if (bytes[offset] !== 0xff) return { ok: false, why: 'damaged' };
    const marker = bytes[offset + 1]!;
    if (marker === SOI || marker === EOI) return { ok: false, why: 'damaged' };
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (length < 2) return { ok: false, why: 'damaged' };
    const segment = { marker, start: offset + 4, end: offset + 2 + length };
    if (segment.end > bytes.length) return { ok: false, why: 'truncated' };
    segments.push(segment);
    if (marker === SOS) return { ok: true, segments };
    offset = segment.end;
  }
}

/**
 * Whether a JPEG is whole: its marker segments chain from the start of the image to the image data,
 * and an end-of-image marker follows the data (0xFF 0xD9 cannot occur inside it). Decoders read a
 * cut-off file differently (one refuses it, another paints what is missing grey, one crashes on a
 * file cut inside its tables), so it is refused here, before any of them sees it.
 * @example jpegCompleteness(bytes); // 'whole', 'truncated' or 'damaged'
 */
export function jpegCompleteness(bytes: Uint8Array): 'whole' | 'truncated' | 'damaged' {
  const read = readSegments(bytes);
  if (!read.ok) return read.why;
  for (let at = bytes.indexOf(0xff, read.segments.at(-1)!.end); at >= 0; at = bytes.indexOf(0xff, at + 1)) {
    if (bytes[at + 1] === EOI) return 'whole';
  }
  return 'truncated';
}

/** The EXIF orientation of a JPEG (1-8) and the offset of its value in the file, when it has one. */
export interface ExifOrientation {
  value: number;
  /** Offset of the tag's 16-bit value in the file, in the EXIF block's byte order. */
  at: number;
  littleEndian: boolean;
}

/**
 * Finds the Orientation tag in the first EXIF block (APP1 "Exif\0\0", IFD0) of a JPEG, in either
 * byte order, as decoders that honour it read it.
 * @example exifOrientation(photo); // { value: 6, at: 30, littleEndian: true }
 */
export function exifOrientation(bytes: Uint8Array): ExifOrientation | undefined {
  const read = readSegments(bytes);
  if (!read.ok) return undefined;
  const exif = read.segments.find(
    ({ marker, start, end }) =>
      marker === APP1 && end - start >= 14 && String.fromCharCode(...bytes.subarray(start, start + 6)) === 'Exif\0\0',
  );
  if (!exif) return undefined;
  const tiff = exif.start + 6;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) return undefined;
  const littleEndian = order === 0x4949;
  const ifd = tiff + view.getUint32(tiff + 4, littleEndian);
  if (ifd + 2 > exif.end) return undefined;
  const entries = view.getUint16(ifd, littleEndian);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > exif.end) return undefined;
    if (view.getUint16(entry, littleEndian) !== ORIENTATION_TAG) continue;
    if (view.getUint16(entry + 2, littleEndian) !== SHORT || view.getUint32(entry + 4, littleEndian) !== 1) return undefined;
    const value = view.getUint16(entry + 8, littleEndian);
    return value >= 1 && value <= 8 ? { value, at: entry + 8, littleEndian } : undefined;
  }
  return undefined;
}
