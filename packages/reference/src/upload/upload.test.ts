import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import {
  contractFetch,
  fixture,
  type RunningReferenceServer,
  startReferenceServer,
  uploadTempFiles,
} from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Uploads against a real server with small limits, so the limits are cheap to hit.
const MAX_FILE_BYTES = 256 * 1024;
const MAX_FILES = 3;
const UPLOAD = '/api/v1/documents/upload_files';
let server: RunningReferenceServer;
let contract: Contract;
let call: ReturnType<typeof contractFetch>;

beforeAll(async () => {
  [server, contract] = await Promise.all([startReferenceServer({ maxFileBytes: MAX_FILE_BYTES, maxFiles: MAX_FILES }), loadContract()]);
  call = contractFetch(server, contract);
});
afterAll(() => server?.close());

const pdf = () => new Blob(['%PDF-1.7\n%%EOF\n']);
const total = async () => (await call('listDocuments', '/api/v1/documents/get_documents')).body.pagination.total as number;
const stored = async () => ({
  files: await readdir(join(server.dataDir, 'files')),
  tmp: await uploadTempFiles(server.dataDir),
});

function upload(parts: Array<[field: string, value: Blob | string, filename?: string]>, headers: Record<string, string> = {}) {
  const body = new FormData();
  for (const [field, value, filename] of parts) {
    if (typeof value === 'string') body.append(field, value);
    else body.append(field, value, filename);
  }
  return call('uploadDocuments', UPLOAD, { method: 'POST', body, headers });
}

/** A multipart body written by hand, for header forms FormData never produces. */
function rawUpload(parts: Array<{ disposition: string; bytes: Uint8Array | string }>) {
  const boundary = 'docproc-test-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${part.disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`, 'utf8'),
    );
    chunks.push(Buffer.from(part.bytes));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return call('uploadDocuments', UPLOAD, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.concat(chunks),
  });
}

describe('the filename length limit of the contract (255 characters)', () => {
  it.each([
    ['255 characters', `${'a'.repeat(251)}.pdf`, 202],
    ['255 characters, some of them outside the BMP', `${'📄'.repeat(251)}.pdf`, 202],
    ['256 characters', `${'a'.repeat(252)}.pdf`, 400],
    ['16,000 characters', `${'a'.repeat(15_996)}.pdf`, 400],
  ])('a filename of %s is answered %i, and a refused one stores nothing', async (_what, name, status) => {
    const before = await total();
    const res = await upload([
      ['files[]', pdf(), 'fine.pdf'],
      ['files[]', pdf(), name],
    ]);
    expect(res.status).toBe(status);
    if (status === 400) {
      expect(res.body).toMatchObject({
        code: 'invalid_request',
        errors: [{ in: 'body', name: 'files[]', message: expect.stringContaining('255') }],
      });
      expect(await total()).toBe(before);
      expect((await stored()).tmp).toEqual([]);
    } else {
      expect(res.body.documents[1].filename).toBe(name);
    }
  });
});

describe('filenames are data, kept exactly as sent', () => {
  it.each([
    'résumé 日本.pdf',
    'emoji 📄 ünïcödé.pdf',
    '../../etc/passwd',
    'folder/sub folder/report.pdf',
    'C:\\Users\\ana\\report.pdf',
    'quote " and ; semicolon.pdf',
    '50%.pdf',
    '.hidden',
    'no extension',
  ])('%s comes back as sent', async (name) => {
    const { status, body } = await upload([['files[]', pdf(), name]]);
    expect(status).toBe(202);
    expect(body.documents[0].filename).toBe(name);
    const again = await call('getDocument', `/api/v1/documents/get_document/${body.documents[0].document_id}`);
    expect(again.body.filename).toBe(name);
  });

  it('decodes RFC 5987 filename* and prefers it over filename', async () => {
    const { body } = await rawUpload([
      { disposition: `form-data; name="files[]"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC.pdf`, bytes: '%PDF-1.7\n' },
      { disposition: `form-data; name="files[]"; filename="fallback.pdf"; filename*=UTF-8''%E2%82%AC%20invoice.pdf`, bytes: '%PDF-1.7\n' },
    ]);
    expect(body.documents.map((d: { filename: string }) => d.filename)).toEqual(['résumé 日本.pdf', '€ invoice.pdf']);
  });

  it('decodes a raw UTF-8 filename (what browsers and curl send)', async () => {
    const { body } = await rawUpload([{ disposition: 'form-data; name="files[]"; filename="Übersicht 日本.pdf"', bytes: '%PDF-1.7\n' }]);
    expect(body.documents[0].filename).toBe('Übersicht 日本.pdf');
  });

  it('stores bytes only under server-made names: the files dir holds ids, the temp dir is empty', async () => {
    await upload([['files[]', pdf(), '../../../../tmp/escape.pdf']]);
    const { files, tmp } = await stored();
    expect(files.every((name) => /^\d+$/.test(name))).toBe(true);
    expect(tmp).toEqual([]);
  });
});

describe('the type comes from the bytes, never from the name or the part header', () => {
  it.each([
    ['text.pdf', 'scan.png', 202, 'application/pdf'],
    ['photo.jpg', 'photo.pdf', 202, 'image/jpeg'],
    ['scanned.png', 'scan.jpg', 202, 'image/png'],
    ['corrupt.pdf', 'corrupt.pdf', 202, 'application/pdf'],
    ['truncated.png', 'truncated.png', 202, 'image/png'],
    ['not-a-document.txt', 'notes.txt', 415, undefined],
    ['text-named.png', 'text-named.png', 415, undefined],
  ])('%s sent as %s: %i %s', async (file, name, status, type) => {
    const res = await upload([['files[]', new Blob([await fixture(file)], { type: 'image/png' }), name]]);
    expect(res.status).toBe(status);
    if (type) expect(res.body.documents[0].content_type).toBe(type);
    else expect(res.body).toMatchObject({ code: 'unsupported_media_type', detail: expect.stringContaining(`"${name}"`) });
  });

  it('an empty file is refused as unsupported', async () => {
    const res = await upload([['files[]', new Blob([]), 'empty.pdf']]);
    expect(res.status).toBe(415);
  });
});

describe('all or nothing: one refused part and nothing is created or kept', () => {
  it.each([
    {
      why: 'a text file in the middle',
      parts: async () => [
        ['files[]', pdf(), 'a.pdf'],
        ['files[]', await fixture('text-named.png'), 'text-named.png'],
        ['files[]', pdf(), 'c.pdf'],
      ],
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      why: 'an oversized last file',
      parts: async () => [
        ['files[]', pdf(), 'a.pdf'],
        ['files[]', new Blob(['%PDF-1.7\n', new Uint8Array(MAX_FILE_BYTES)]), 'big.pdf'],
      ],
      status: 413,
      code: 'file_too_large',
    },
    {
      why: 'a file under the wrong field name',
      parts: async () => [
        ['files[]', pdf(), 'a.pdf'],
        ['file', pdf(), 'b.pdf'],
      ],
      status: 400,
      code: 'invalid_request',
    },
    {
      why: 'a text field beside the files',
      parts: async () => [
        ['files[]', pdf(), 'a.pdf'],
        ['note', 'hello'],
      ],
      status: 400,
      code: 'invalid_request',
    },
    {
      why: 'one file too many',
      parts: async () => Array.from({ length: MAX_FILES + 1 }, (_, i) => ['files[]', pdf(), `${i}.pdf`]),
      status: 413,
      code: 'too_many_files',
    },
  ] as const)('$why: $status $code', async ({ parts, status, code }) => {
    const before = await total();
    const filesBefore = (await stored()).files;
    const res = await upload((await parts()) as Array<[string, Blob | string, string?]>);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(await total()).toBe(before);
    expect(await stored()).toEqual({ files: filesBefore, tmp: [] });
  });
});

describe('refusals name what was wrong', () => {
  it.each([
    {
      what: 'a file under "file"',
      parts: () => [['file', pdf(), 'a.pdf']],
      error: { in: 'body', name: 'file', message: expect.stringContaining('files[]') },
    },
    {
      what: 'a text part named "files[]"',
      parts: () => [['files[]', 'not a file']],
      error: { in: 'body', name: 'files[]', message: expect.stringContaining('file part') },
    },
    { what: 'no parts at all', parts: () => [], error: { in: 'body', name: 'files[]', message: 'at least one file is required' } },
  ] as const)('$what', async ({ parts, error }) => {
    const res = await upload(parts() as Array<[string, Blob | string, string?]>);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([error]);
  });

  it('names the file that is too large and the limit', async () => {
    const res = await upload([['files[]', new Blob(['%PDF-1.7\n', new Uint8Array(MAX_FILE_BYTES)]), 'scan-archive.pdf']]);
    expect(res.body.detail).toBe(`"scan-archive.pdf" is larger than the ${MAX_FILE_BYTES}-byte limit per file.`);
  });

  it('a file of exactly the limit and exactly the maximum number of files are accepted', async () => {
    const exact = new Blob(['%PDF-1.7\n', new Uint8Array(MAX_FILE_BYTES - 9)]);
    const res = await upload(
      Array.from({ length: MAX_FILES }, (_, i) => ['files[]', i === 0 ? exact : pdf(), `${i}.pdf`] as [string, Blob, string]),
    );
    expect(res.status).toBe(202);
    expect(res.body.documents[0].size_bytes).toBe(MAX_FILE_BYTES);
  });

  it.each([
    [
      'a body that ends mid-part',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="files[]"; filename="a.pdf"\r\n\r\n%PDF-1.7',
    ],
    ['a multipart type without a boundary', 'multipart/form-data', 'whatever'],
    ['a JSON body', 'application/json', '{"files[]": []}'],
    ['no body at all', undefined, undefined],
  ])('%s is a 400', async (_what, contentType, body) => {
    const res = await call('uploadDocuments', UPLOAD, {
      method: 'POST',
      headers: contentType ? { 'content-type': contentType } : {},
      body,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect((await stored()).tmp).toEqual([]);
  });
});

describe('ids', () => {
  it('are unique and increasing across 30 concurrent uploads, each in part order', async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        upload([
          ['files[]', pdf(), `c${i}-a.pdf`],
          ['files[]', pdf(), `c${i}-b.pdf`],
        ]),
      ),
    );
    const ids = results.flatMap((r) => r.body.documents.map((d: { document_id: number }) => d.document_id));
    expect(new Set(ids).size).toBe(60);
    for (const { body } of results) expect(body.documents[1].document_id).toBe(body.documents[0].document_id + 1);
  });
});

describe('413 without reading the body into memory', () => {
  it('a 512 MiB upload over the limit is refused without memory growing anywhere near its size', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x41);
    const header = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="files[]"; filename="huge.pdf"\r\n\r\n%PDF-1.7\n');
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(header),
      pull(controller) {
        if (sent >= 512 * 1024 * 1024) {
          controller.enqueue(new TextEncoder().encode('\r\n--b--\r\n'));
          return controller.close();
        }
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    global.gc?.();
    const baseline = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss - baseline.rss, now.arrayBuffers - baseline.arrayBuffers);
    }, 5);
    const res = await fetch(server.baseUrl + UPLOAD, {
      method: 'POST',
      headers: { 'x-api-key': server.apiKeys[0]!, 'content-type': 'multipart/form-data; boundary=b' },
      body,
      duplex: 'half',
    } as RequestInit);
    clearInterval(sampler);
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('file_too_large');
    expect(sent).toBeGreaterThan(MAX_FILE_BYTES);
    // Buffering the body would take 512 MiB; streaming leaves only transient garbage (client and
    // server share this process, so this bounds both).
    expect(peak).toBeLessThan(160 * 1024 * 1024);
    expect((await stored()).tmp).toEqual([]);
  }, 60_000);
});
