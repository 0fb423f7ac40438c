import { boundaryOf, parseMultipart } from '@docproc-kit/reference/http/upload/multipart-body.js';
import { describe, expect, it } from 'vitest';
import { createMultipartTap } from './multipart-tap.js';

// The tap against the server's own whole-body parser: whatever the chunking, the same parts with the same
// names, filenames and sizes.
async function encoded(parts: Array<{ field: string; name?: string; bytes: Uint8Array; type?: string }>) {
  const form = new FormData();
  for (const p of parts)
    if (p.name === undefined) form.append(p.field, new TextDecoder().decode(p.bytes));
    else form.append(p.field, new Blob([p.bytes as Uint8Array<ArrayBuffer>], { type: p.type ?? '' }), p.name);
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}

function tapped(body: Buffer, contentType: string, chunkSize: number) {
  const tap = createMultipartTap(contentType);
  for (let at = 0; at < body.length; at += chunkSize) tap.write(body.subarray(at, at + chunkSize));
  return tap.end();
}

describe('the multipart tap', () => {
  const bytes = new Uint8Array(200_000).map((_, i) => (i * 7) % 256);
  const cases = [
    { what: 'one file', parts: [{ field: 'files[]', name: 'a.pdf', bytes, type: 'application/pdf' }] },
    {
      what: 'several files, a text field and a file under another field',
      parts: [
        { field: 'files[]', name: 'résumé 日本.pdf', bytes: bytes.subarray(0, 10), type: 'application/pdf' },
        { field: 'note', bytes: new TextEncoder().encode('hello') },
        { field: 'file', name: 'b.png', bytes: bytes.subarray(0, 70_000), type: 'image/png' },
        { field: 'files[]', name: 'empty.pdf', bytes: new Uint8Array(0) },
      ],
    },
  ];
  for (const { what, parts } of cases)
    for (const chunkSize of [1, 7, 63, 4096, 65_536, 1 << 20])
      it(`reads ${what} fed in chunks of ${chunkSize} bytes as the whole-body parser does`, async () => {
        const { body, contentType } = await encoded(parts);
        const whole = parseMultipart(body, boundaryOf(contentType)!);
        if (!whole.ok) throw new Error(whole.reason);
        const result = tapped(body, contentType, chunkSize);
        expect(result.malformed).toBeUndefined();
        expect(result.parts.map((p) => [p.name, p.filename, p.size])).toEqual(whole.parts.map((p) => [p.name, p.filename, p.data.length]));
      });

  it('says a body cut before its closing boundary is malformed, and keeps the parts it saw', async () => {
    const { body, contentType } = await encoded([{ field: 'files[]', name: 'a.pdf', bytes }]);
    const result = tapped(body.subarray(0, 1000), contentType, 100);
    expect(result.malformed).toBe('the body ended before the closing boundary');
    expect(result.parts.map((p) => p.name)).toEqual(['files[]']);
  });

  it('says a Content-Type without a boundary is not multipart it can read', () => {
    expect(createMultipartTap('multipart/form-data').end().malformed).toBe('no boundary in the Content-Type');
  });
});
