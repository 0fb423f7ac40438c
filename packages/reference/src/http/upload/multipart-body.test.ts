import { describe, expect, it } from 'vitest';
import { boundaryOf, parseMultipart } from './multipart-body.js';

const encoder = new TextEncoder();
const body = (text: string) => encoder.encode(text.replace(/\n/g, '\r\n'));
const names = (text: string) => {
  const parsed = parseMultipart(body(text), 'b');
  return parsed.ok
    ? parsed.parts.map((p) => ({ name: p.name, filename: p.filename, isFile: p.isFile, data: new TextDecoder().decode(p.data) }))
    : parsed;
};

describe('parseMultipart reads a body as the server parser (busboy) does', () => {
  it.each([
    {
      label: 'a file part and its bytes',
      text: '--b\nContent-Disposition: form-data; name="files[]"; filename="a.pdf"\nContent-Type: application/pdf\n\n%PDF\n--b--\n',
      parts: [{ name: 'files[]', filename: 'a.pdf', isFile: true, data: '%PDF' }],
    },
    {
      label: 'filename* over filename, decoded by its charset',
      text: '--b\nContent-Disposition: form-data; name="files[]"; filename="fallback.pdf"; filename*=UTF-8\'\'Gr%C3%BC%C3%9Fe%20%E2%9C%93.pdf\n\nx\n--b--\n',
      parts: [{ name: 'files[]', filename: 'Grüße ✓.pdf', isFile: true, data: 'x' }],
    },
    {
      label: 'a UTF-8 filename with slashes and dots, kept whole',
      text: '--b\nContent-Disposition: form-data; name="files[]"; filename="../r/é.pdf"\n\nx\n--b--\n',
      parts: [{ name: 'files[]', filename: '../r/é.pdf', isFile: true, data: 'x' }],
    },
    {
      label: 'escaped quotes and backslashes in a quoted filename; any other backslash kept',
      text: '--b\nContent-Disposition: form-data; name="files[]"; filename="a\\"b\\\\c\\d.pdf"\n\nx\n--b--\n',
      parts: [{ name: 'files[]', filename: 'a"b\\c\\d.pdf', isFile: true, data: 'x' }],
    },
    {
      label: 'a text field (no filename), and an octet-stream part without one that is a file',
      text: '--b\nContent-Disposition: form-data; name="note"\n\nhi\n--b\nContent-Disposition: form-data; name="f"\nContent-Type: application/octet-stream\n\ny\n--b--\n',
      parts: [
        { name: 'note', filename: undefined, isFile: false, data: 'hi' },
        { name: 'f', filename: undefined, isFile: true, data: 'y' },
      ],
    },
    {
      label: 'a part without Content-Disposition, skipped; a preamble, ignored',
      text: 'preamble\n--b\nContent-Type: application/pdf\n\n%PDF\n--b--\n',
      parts: [],
    },
    { label: 'an empty form', text: '--b--\n', parts: [] },
  ])('$label', ({ text, parts }) => {
    expect(names(text)).toEqual(parts);
  });

  it.each([
    { label: 'cut off mid-file', text: '--b\nContent-Disposition: form-data; name="files[]"; filename="a.pdf"\n\n%PDF-1.7 and more' },
    { label: 'cut off in the headers', text: '--b\nContent-Disposition: form-data; name="files[]"' },
    { label: 'without any boundary', text: 'just text' },
    { label: 'with garbage after a boundary', text: '--bx\n\n--b--\n' },
  ])('calls a body $label malformed', ({ text }) => {
    expect(parseMultipart(body(text), 'b')).toMatchObject({ ok: false });
  });

  it.each([
    ['multipart/form-data; boundary=abc', 'abc'],
    ['multipart/form-data; boundary="a b;c"', 'a b;c'],
    ['multipart/form-data; charset=utf-8; BOUNDARY=x', 'x'],
    ['multipart/form-data', undefined],
  ])('finds the boundary of %s', (contentType, boundary) => {
    expect(boundaryOf(contentType)).toBe(boundary);
  });
});
