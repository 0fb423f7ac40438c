import { describe, expect, it } from 'vitest';
import { buildMultipart, encodeRfc5987 } from './multipart.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('hand-built multipart bodies', () => {
  it('frames each part with the boundary and ends with the closing delimiter', () => {
    const { body, contentType } = buildMultipart(
      [{ field: 'files[]', filename: 'a.pdf', contentType: 'application/pdf', data: new TextEncoder().encode('PDF') }],
      'B',
    );
    expect(contentType).toBe('multipart/form-data; boundary=B');
    expect(text(body)).toBe(
      '--B\r\nContent-Disposition: form-data; name="files[]"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\nPDF\r\n--B--\r\n',
    );
  });

  it("writes filename* as UTF-8'' with percent-encoded bytes after the plain filename", () => {
    const { body } = buildMultipart([{ field: 'f', filename: 'x.pdf', filenameStar: 'Grüße ✓.pdf', data: new Uint8Array() }], 'B');
    expect(text(body)).toContain(`filename="x.pdf"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%E2%9C%93.pdf`);
  });

  it.each([
    ['abc-._~', 'abc-._%7E'.replace('%7E', '~')],
    ['a b', 'a%20b'],
    ["it's", 'it%27s'],
  ])('encodes %s as %s (RFC 5987 attr-chars kept)', (input, encoded) => {
    expect(encodeRfc5987(input)).toBe(encoded);
  });
});
