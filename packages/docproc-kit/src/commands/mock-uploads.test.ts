import { readFileSync } from 'node:fs';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Uploads as real clients send them, against the real `docproc mock` process: every one is
// answered as the contract says, and the process is still there afterwards.
let mock: RunningCli;
let contract: Contract;
beforeAll(async () => {
  [mock, contract] = await Promise.all([startCli(['mock'], { readyPath: '/api/v1/documents/get_documents' }), loadContract()]);
}, 60_000);
afterAll(() => mock?.stop());

const UPLOAD = '/api/v1/documents/upload_files';
const KEY = 'any-key-works-with-the-mock';
const MiB = 1024 * 1024;
const textPdf = readFileSync(fixturePath('text.pdf'));
const notADocument = readFileSync(fixturePath('not-a-document.txt'));
/** A PDF header followed by padding: a PDF by its leading bytes, of any size. */
const pdfOfSize = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(bytes - 9, 0x20)]);

/** One part exactly as written on the wire: its header lines (none at all is allowed) and bytes. */
interface WirePart {
  headers: string[];
  data: Buffer;
}
const filePart = (disposition: string, data: Buffer = textPdf, contentType?: string): WirePart => ({
  headers: [`Content-Disposition: ${disposition}`, ...(contentType ? [`Content-Type: ${contentType}`] : [])],
  data,
});

/** A multipart body byte for byte (boundary like Python requests' hex boundaries). */
function wireBody(parts: WirePart[], { truncate = false } = {}): { body: Buffer; contentType: string } {
  const boundary = '30b7f8d0fba58d4af7cd76a831118e6a';
  const chunks = parts.flatMap((p) => [
    Buffer.from(`--${boundary}\r\n${p.headers.map((h) => `${h}\r\n`).join('')}\r\n`, 'utf8'),
    p.data,
    Buffer.from('\r\n'),
  ]);
  const body = Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]);
  return { body: truncate ? body.subarray(0, body.length - 40) : body, contentType: `multipart/form-data; boundary=${boundary}` };
}

const many = (n: number) => Array.from({ length: n }, (_, i) => filePart(`form-data; name="files[]"; filename="page-${i + 1}.pdf"`));

const rows: Array<{ name: string; body: () => { body: Buffer; contentType: string }; status: number; code?: string }> = [
  // What `requests.post(url, files={'files[]': open('text.pdf', 'rb')})` sends: no part Content-Type.
  {
    name: 'a part without Content-Type (Python requests)',
    body: () => wireBody([filePart('form-data; name="files[]"; filename="text.pdf"')]),
    status: 202,
  },
  // curl 7.88 and Python requests percent-encode a quote; `;` stays as it is, inside the quotes.
  {
    name: 'a filename with ; and an encoded " (curl, requests)',
    body: () => wireBody([filePart('form-data; name="files[]"; filename="x;y%22z.pdf"', textPdf, 'application/pdf')]),
    status: 202,
  },
  // Go's mime/multipart escapes a quote with a backslash.
  {
    name: 'a filename with a backslash-escaped " (Go)',
    body: () => wireBody([filePart('form-data; name="files[]"; filename="say \\"hi\\".pdf"', textPdf, 'application/pdf')]),
    status: 202,
  },
  {
    name: "only filename*=UTF-8''... (RFC 5987)",
    body: () => wireBody([filePart('form-data; name="files[]"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf')]),
    status: 202,
  },
  {
    name: 'a 20 MiB file',
    body: () => wireBody([filePart('form-data; name="files[]"; filename="big.pdf"', pdfOfSize(20 * MiB), 'application/pdf')]),
    status: 202,
  },
  { name: '20 files, the most one upload may carry', body: () => wireBody(many(20)), status: 202 },
  {
    name: 'a part with no Content-Disposition',
    body: () => wireBody([{ headers: ['Content-Type: application/pdf'], data: textPdf }]),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'a file under another field name',
    body: () => wireBody([filePart('form-data; name="file"; filename="text.pdf"')]),
    status: 400,
    code: 'invalid_request',
  },
  { name: 'an empty multipart body', body: () => wireBody([]), status: 400, code: 'invalid_request' },
  {
    name: 'a body cut off mid-part',
    body: () => wireBody([filePart('form-data; name="files[]"; filename="text.pdf"')], { truncate: true }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'JSON instead of multipart',
    body: () => ({ body: Buffer.from('{"files":[]}'), contentType: 'application/json' }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'a text file named .pdf',
    body: () => wireBody([filePart('form-data; name="files[]"; filename="notes.pdf"', notADocument, 'application/pdf')]),
    status: 415,
    code: 'unsupported_media_type',
  },
  { name: '21 files', body: () => wireBody(many(21)), status: 413, code: 'too_many_files' },
  {
    name: 'a file one byte over 25 MiB',
    body: () => wireBody([filePart('form-data; name="files[]"; filename="huge.pdf"', pdfOfSize(25 * MiB + 1))]),
    status: 413,
    code: 'file_too_large',
  },
];

describe('docproc mock answers every upload as the contract says', () => {
  it.each(rows)(
    '$name: $status',
    async ({ body: build, status, code }) => {
      const { body, contentType } = build();
      const res = await fetch(mock.baseUrl + UPLOAD, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': contentType },
        body: new Uint8Array(body),
      });
      const text = await res.text();
      expect(res.status, text).toBe(status);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      const documented = contract.response('uploadDocuments', status)!;
      const [mediaType, media] = Object.entries(documented.content!)[0]!;
      expect(res.headers.get('content-type')).toContain(mediaType);
      expect(contract.validate(media.schema!, JSON.parse(text)).errors).toEqual([]);
      if (code) expect(JSON.parse(text)).toMatchObject({ status, code });
      // Still alive and answering after every one of them.
      const list = await fetch(`${mock.baseUrl}/api/v1/documents/get_documents`, { headers: { 'x-api-key': KEY } });
      expect(list.status).toBe(200);
    },
    60_000,
  );

  it('is still the same running process at the end', () => {
    expect(mock.child.exitCode, mock.output()).toBeNull();
  });
});
