import { type Canvas, createCanvas } from '@napi-rs/canvas';

/** How a camera stores a photo: its EXIF orientation (1-8) and the byte order of the EXIF block. */
export interface PhonePhotoOptions {
  /** 1: stored upright; 6: stored turned 90° anticlockwise, as a phone held upright stores it. */
  orientation: number;
  /** 'II' little-endian (most Android phones), 'MM' big-endian (iPhone). */
  byteOrder: 'II' | 'MM';
  /** The photo as it is seen once turned upright, in pixels (default 3024×4032: 12 megapixels, portrait). */
  width?: number;
  height?: number;
  /** Lines of text printed on the page in the photo. */
  lines: string[];
  /** Height of the type in pixels (default: as large as the longest line fits the width). */
  fontPx?: number;
  /** JPEG quality, 0-100 (default 85). */
  quality?: number;
}

// Where a pixel (u, v) of the upright photo lands in the stored one, as a canvas transform
// [a, b, c, d, e, f]: x = a·u + c·v + e, y = b·u + d·v + f. Each is the inverse of what the EXIF
// orientation tells a viewer to do, for an upright photo of width w and height h.
const STORED: Record<number, (w: number, h: number) => [number, number, number, number, number, number]> = {
  1: () => [1, 0, 0, 1, 0, 0],
  2: (w) => [-1, 0, 0, 1, w, 0], // mirrored left to right
  3: (w, h) => [-1, 0, 0, -1, w, h], // upside down
  4: (_w, h) => [1, 0, 0, -1, 0, h], // mirrored top to bottom
  5: () => [0, 1, 1, 0, 0, 0], // mirrored across the top-left to bottom-right diagonal
  6: (w) => [0, -1, 1, 0, 0, w], // turned 90° anticlockwise: a viewer turns it clockwise
  7: (w, h) => [0, -1, -1, 0, h, w], // mirrored across the other diagonal
  8: (_w, h) => [0, 1, -1, 0, h, 0], // turned 90° clockwise: a viewer turns it anticlockwise
};

/** Whether an orientation stores the photo with its width and height swapped. */
export const swapsSides = (orientation: number) => orientation >= 5;

/**
 * An EXIF APP1 segment holding only IFD0's Orientation tag, in either byte order, as cameras write it.
 * @example exifOrientationSegment(6, 'II'); // FF E1 00 22 'Exif\0\0' 'II' 2A 00 ...
 */
export function exifOrientationSegment(orientation: number, byteOrder: 'II' | 'MM'): Uint8Array {
  const tiff = new DataView(new ArrayBuffer(26));
  const little = byteOrder === 'II';
  tiff.setUint8(0, byteOrder.charCodeAt(0));
  tiff.setUint8(1, byteOrder.charCodeAt(1));
  tiff.setUint16(2, 42, little);
  tiff.setUint32(4, 8, little); // IFD0 right after the header
  tiff.setUint16(8, 1, little); // one entry
  tiff.setUint16(10, 0x0112, little); // Orientation
  tiff.setUint16(12, 3, little); // SHORT
  tiff.setUint32(14, 1, little); // one value, held in the entry itself
  tiff.setUint16(18, orientation, little);
  tiff.setUint32(22, 0, little); // no next IFD
  const body = [...Buffer.from('Exif\0\0', 'latin1'), ...new Uint8Array(tiff.buffer)];
  const length = body.length + 2;
  return Uint8Array.from([0xff, 0xe1, length >> 8, length & 0xff, ...body]);
}

/** A JPEG with an EXIF orientation segment put right after its start-of-image marker. */
export function withExifOrientation(jpeg: Uint8Array, orientation: number, byteOrder: 'II' | 'MM'): Uint8Array {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  return Buffer.concat([jpeg.subarray(0, 2), exifOrientationSegment(orientation, byteOrder), jpeg.subarray(2)]);
}

/** The pixels of an upright photo as a camera stores them for an EXIF orientation. */
function storedAs(upright: Canvas, orientation: number): Canvas {
  if (orientation === 1) return upright;
  const { width, height } = upright;
  const stored = swapsSides(orientation) ? createCanvas(height, width) : createCanvas(width, height);
  const context = stored.getContext('2d');
  context.setTransform(...STORED[orientation]!(width, height));
  context.drawImage(upright, 0, 0);
  return stored;
}

/** Draws the upright photo: a white page of dark text lines, large enough to read at a glance. */
function drawUpright(width: number, height: number, lines: string[], fontPx?: number) {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#f4f1ea';
  context.fillRect(0, 0, width, height);
  const longest = Math.max(...lines.map((line) => line.length));
  const size = fontPx ?? Math.floor(Math.min((width * 0.85) / (longest * 0.62), height / (lines.length * 2.2)));
  context.fillStyle = '#1a1a1a';
  context.font = `${size}px sans-serif`;
  context.textBaseline = 'top';
  for (const [i, line] of lines.entries()) context.fillText(line, width * 0.07, height * 0.1 + i * size * 1.8);
  return canvas;
}

/**
 * A phone photo of a printed page as a camera stores it: the pixels as the sensor saw them (turned or
 * mirrored for orientations other than 1), with an EXIF orientation that tells a viewer how to show
 * it upright.
 * @example const jpeg = await phonePhoto({ orientation: 6, byteOrder: 'II', lines: ['Receipt', 'PERSIMMON'] });
 */
export async function phonePhoto({ orientation, byteOrder, width = 3024, height = 4032, lines, fontPx, quality = 85 }: PhonePhotoOptions) {
  const jpeg = await storedAs(drawUpright(width, height, lines, fontPx), orientation).encode('jpeg', quality);
  return withExifOrientation(jpeg, orientation, byteOrder);
}

/**
 * A small photo in four coloured quarters (red top left, green top right, blue bottom left, black
 * bottom right when upright), stored for an EXIF orientation: turned the right way, a reader sees
 * every quarter where it belongs, and a mirror or a wrong turn moves some.
 */
export async function quarteredPhoto(orientation: number, byteOrder: 'II' | 'MM', width = 64, height = 48) {
  const upright = createCanvas(width, height);
  const context = upright.getContext('2d');
  const quarters: Array<[string, number, number]> = [
    ['#ff0000', 0, 0],
    ['#00ff00', width / 2, 0],
    ['#0000ff', 0, height / 2],
    ['#000000', width / 2, height / 2],
  ];
  for (const [colour, x, y] of quarters) {
    context.fillStyle = colour;
    context.fillRect(x, y, width / 2, height / 2);
  }
  return withExifOrientation(await storedAs(upright, orientation).encode('jpeg', 95), orientation, byteOrder);
}
