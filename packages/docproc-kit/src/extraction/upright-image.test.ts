import { quarteredPhoto } from '@docproc-kit/test-support/phone-photo.js';
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { readUprightGrey, UndecodableImage } from './upright-image.js';

// What tesseract is handed for an uploaded image, decoded by the real decoder (Skia) in this process.

/** The PGM's size and the grey of one pixel. */
function pgm(bytes: Uint8Array) {
  const [width, height] = new TextDecoder().decode(bytes.subarray(0, 20)).split(/\s+/).slice(1, 3).map(Number) as [number, number];
  const pixelsAt = bytes.length - width * height;
  return { width, height, grey: (x: number, y: number) => bytes[pixelsAt + y * width + x]! };
}

// Red, green, blue and black as BT.601 luma: 76, 149, 28, 0; JPEG blurs them by a few levels.
const QUARTERS = { 'top left (red)': 76, 'top right (green)': 149, 'bottom left (blue)': 28, 'bottom right (black)': 0 };

describe('a photo is handed to OCR upright, whatever its EXIF orientation', () => {
  it.each(
    [1, 2, 3, 4, 5, 6, 7, 8].flatMap((orientation) => [
      [orientation, 'II'],
      [orientation, 'MM'],
    ]) as Array<[number, 'II' | 'MM']>,
  )('orientation %i, %s byte order: each quarter where it belongs', async (orientation, order) => {
    const image = pgm(await readUprightGrey(await quarteredPhoto(orientation, order), 25e6));
    expect([image.width, image.height]).toEqual([64, 48]);
    const seen = [
      image.grey(16, 12), // the middle of each quarter
      image.grey(48, 12),
      image.grey(16, 36),
      image.grey(48, 36),
    ];
    for (const [i, expected] of Object.values(QUARTERS).entries()) expect(Math.abs(seen[i]! - expected)).toBeLessThan(12);
  });
});

describe('what else the decoding does', () => {
  it('lays transparency on white, so dark text on a transparent PNG stays dark on light', async () => {
    const canvas = createCanvas(40, 20);
    const context = canvas.getContext('2d');
    context.fillStyle = '#000000';
    context.fillRect(0, 0, 20, 20);
    const image = pgm(await readUprightGrey(await canvas.encode('png'), 25e6));
    expect([image.grey(5, 5), image.grey(35, 5)]).toEqual([0, 255]);
  });

  it('scales an image larger than the pixel limit down to it, keeping its proportions', async () => {
    const image = pgm(await readUprightGrey(await quarteredPhoto(6, 'II', 400, 300), 30_000));
    expect([image.width, image.height]).toEqual([200, 150]);
    expect(Math.abs(image.grey(50, 37) - 76)).toBeLessThan(12);
  });

  it('a file the decoder cannot read is UndecodableImage, with its reason', async () => {
    await expect(readUprightGrey(new TextEncoder().encode('not an image at all'), 25e6)).rejects.toBeInstanceOf(UndecodableImage);
  });
});
