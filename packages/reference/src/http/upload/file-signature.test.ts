import { readFile } from 'node:fs/promises';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_BYTES, sniffType, verdictIsFinal } from './file-signature.js';

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
// A chunk header: its data length (big-endian) and type.
const chunk = (length: number, type: string) => [...[24, 16, 8, 0].map((s) => (length >>> s) & 0xff), ...bytes(type)];

describe('sniffType judges a file by its leading bytes', () => {
  it.each([
    ['text.pdf', 'application/pdf'],
    ['multipage.pdf', 'application/pdf'],
    ['corrupt.pdf', 'application/pdf'],
    ['scanned.png', 'image/png'],
    ['truncated.png', 'image/png'],
    ['photo.jpg', 'image/jpeg'],
    ['scan-jpeg.pdf', 'application/pdf'],
    ['scan-g4.pdf', 'application/pdf'],
    ['scan-a4-letter.pdf', 'application/pdf'],
    ['cjk-nonembedded.pdf', 'application/pdf'],
    ['photo-exif-le.jpg', 'image/jpeg'],
    ['photo-exif-be.jpg', 'image/jpeg'],
    ['hopeless-scan.jpg', 'image/jpeg'],
    ['not-a-document.txt', undefined],
    ['text-named.png', undefined],
  ])('the fixture %s is %s', async (name, type) => {
    expect(sniffType(await readFile(fixturePath(name)))).toBe(type);
  });

  it.each([
    ['a PDF header alone', bytes('%PDF'), 'application/pdf'],
    ['a PDF header after a blank line', bytes('\n%PDF-1.7'), undefined],
    ['a JPEG start of image and marker', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    ['a JPEG-LS file (SOF55 first)', bytes([0xff, 0xd8, 0xff, 0xf7]), undefined],
    ['a PNG with its IHDR then IDAT', bytes(PNG, chunk(13, 'IHDR'), new Array(17).fill(0), chunk(0, 'IDAT')), 'image/png'],
    ['an animated PNG (acTL before IDAT)', bytes(PNG, chunk(13, 'IHDR'), new Array(17).fill(0), chunk(8, 'acTL')), 'image/png'],
    ['a PNG whose chunks outrun the head', bytes(PNG, chunk(SIGNATURE_BYTES, 'IHDR'), [0, 0, 0, 0]), 'image/png'],
    ['a PNG signature alone', bytes(PNG), undefined],
    ['a PNG with a chunk length past 2^31 - 1', bytes(PNG, chunk(0x8000_0000, 'IHDR')), undefined],
    ['one byte', bytes([0x25]), undefined],
    ['nothing', bytes(), undefined],
    ['a text file', bytes('hello, world'), undefined],
  ])('%s is %s', (_what, file, type) => {
    expect(sniffType(file)).toBe(type);
  });

  it(`reads no further than ${SIGNATURE_BYTES} bytes: a PNG chunk length past 2^31 - 1 after them decides nothing`, () => {
    const head = bytes(PNG, chunk(SIGNATURE_BYTES - 16, 'tEXt'), new Array(SIGNATURE_BYTES - 12).fill(0x20));
    expect(sniffType(bytes([...head], chunk(0x8000_0000, 'zzzz')))).toBe('image/png');
  });
});

describe('verdictIsFinal says when the leading bytes already fix the verdict', () => {
  it.each([
    ['a PDF header', bytes('%PDF'), true],
    ['a JPEG header', bytes([0xff, 0xd8, 0xff, 0xe0]), true],
    ['three bytes of a PDF header', bytes('%PD'), false],
    ['a PNG signature with its first chunk', bytes(PNG, chunk(13, 'IHDR')), false],
    ['a whole head of text', bytes('x'.repeat(SIGNATURE_BYTES)), true],
  ])('%s: %s', (_what, head, final) => {
    expect(verdictIsFinal(head)).toBe(final);
  });

  it('only when more bytes cannot change it: every longer head of a decided one gets the same verdict', () => {
    for (const head of [bytes('%PDF'), bytes([0xff, 0xd8, 0xff, 0xf7]), bytes([0xff, 0xd8, 0xff, 0xdb])])
      expect(sniffType(bytes([...head], 'anything after'))).toBe(sniffType(head));
  });
});
