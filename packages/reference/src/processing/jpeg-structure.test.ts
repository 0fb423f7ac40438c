import { exifOrientationSegment, phonePhoto, withExifOrientation } from '@docproc-kit/test-support/phone-photo.js';
import { describe, expect, it } from 'vitest';
import { exifOrientation, jpegCompleteness } from './jpeg-structure.js';

// The markers of real JPEGs (made by Skia's encoder, EXIF as cameras write it), read without decoding.
const photo = await phonePhoto({ orientation: 6, byteOrder: 'II', width: 120, height: 160, lines: ['Hi'] });

describe('whether a JPEG is whole', () => {
  it.each([
    ['a whole photo', photo, 'whole'],
    [
      'a photo with bytes after its end-of-image marker (a trailer, as some phones append)',
      Buffer.concat([photo, Buffer.from('trailer')]),
      'whole',
    ],
    ['a photo cut in its image data', photo.subarray(0, photo.length - 40), 'truncated'],
    ['a photo cut inside its header segments', photo.subarray(0, 60), 'truncated'],
    [
      'a photo whose segments are followed by garbage instead of a marker',
      Buffer.concat([photo.subarray(0, 38), Buffer.alloc(200, 0x5a)]),
      'damaged',
    ],
  ])('%s is %s', (_what, bytes, expected) => {
    expect(jpegCompleteness(bytes)).toBe(expected);
  });
});

describe('the EXIF orientation of a JPEG', () => {
  it.each([
    ['II', true],
    ['MM', false],
  ] as const)('is found in %s byte order, with where its value lies', async (order, littleEndian) => {
    const turned = await phonePhoto({ orientation: 8, byteOrder: order, width: 120, height: 160, lines: ['Hi'] });
    // Start of image, APP1 marker and length, "Exif\0\0", TIFF header, entry count, tag, type and count.
    expect(exifOrientation(turned)).toEqual({ value: 8, at: 2 + 4 + 6 + 8 + 2 + 8, littleEndian });
  });

  it('is absent from a JPEG without EXIF, and from one whose EXIF block has no IFD0 in bounds', () => {
    const withoutExif = Buffer.concat([photo.subarray(0, 2), photo.subarray(2 + exifOrientationSegment(6, 'II').length)]);
    expect(exifOrientation(withoutExif)).toBeUndefined();
    expect(exifOrientation(withExifOrientation(withoutExif, 3, 'MM'))).toMatchObject({ value: 3 });
    const broken = Buffer.from(photo);
    broken.writeUInt32LE(0xffff, 2 + 4 + 6 + 4); // IFD0 offset far past the block
    expect(exifOrientation(broken)).toBeUndefined();
  });
});
