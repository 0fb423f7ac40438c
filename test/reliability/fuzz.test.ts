import { request } from 'node:http';
import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import { startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Hostile input from fast-check against the real reference server: whatever arrives, the answer is
// never a 5xx, every error is a problem+json whose status matches, every success matches the
// contract, and a rejected request changes nothing.
type Server = Awaited<ReturnType<typeof startReferenceServer>>;
let server: Server;
let contract: Contract;
const KEY = 'docproc-dev-key';
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

beforeAll(async () => {
  [server, contract] = await Promise.all([startReferenceServer(), loadContract()]);
  // Something to list, so "changes nothing" compares real state, not an empty store.
  const form = new FormData();
  form.append('files[]', new Blob(['%PDF-1.7\n%%EOF\n']), 'seed.pdf');
  const res = await fetch(`${server.baseUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: { 'x-api-key': KEY }, body: form });
  expect(res.status).toBe(202);
}, 60_000);
afterAll(() => server?.close());

interface Raw {
  status: number;
  contentType: string;
  body: string;
}

/** Sends bytes exactly as given (fetch would normalize or refuse some of them). */
function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.baseUrl}${path}`, { method, headers, insecureHTTPParser: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The caller's whole visible state: every document of the list, as a fingerprint. */
async function snapshot(): Promise<string> {
  const res = await send('GET', '/api/v1/documents/get_documents?limit=100', { 'x-api-key': KEY });
  const { documents, pagination } = JSON.parse(res.body) as { documents: Array<{ document_id: number }>; pagination: { total: number } };
  return JSON.stringify({ total: pagination.total, ids: documents.map((d) => d.document_id) });
}

function expectWellFormed(res: Raw, operationId: string | undefined) {
  expect(res.status, res.body).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.contentType).toContain('application/problem+json');
    const problem = JSON.parse(res.body) as { status: number; code: string };
    expect(problem.status).toBe(res.status);
    const check = contract.validate(contract.document.components!.schemas!.Problem!, problem);
    expect(check.errors).toEqual([]);
  } else if (operationId) {
    const media = contract.response(operationId, res.status)?.content?.['application/json'];
    expect(media, `${operationId} ${res.status} is documented`).toBeDefined();
    expect(contract.validate(media!.schema!, JSON.parse(res.body)).errors).toEqual([]);
  }
}

// Query-string material that exercises parsers: numbers of every shape, encodings, separators.
const queryValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    ' 1',
    '1 ',
    '+1',
    '٣',
    '9'.repeat(30),
    'NaN',
    'null',
    '[]',
    '%',
    '%zz',
    '%00',
    '&',
    '=',
    'processing',
    'FAILED',
  ),
  fc.integer().map(String),
  fc.string({ unit: 'grapheme', maxLength: 250 }),
);
const queryName = fc.constantFrom('page', 'limit', 'status_filter', 'search', 'page[]', 'limit[0]', 'search[a]', 'x', '');

describe('fuzzing the reference server', () => {
  it('answers any list query string with a documented 200 or a 400 problem, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(queryName, queryValue), { maxLength: 6 }), async (pairs) => {
        const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const res = await send('GET', `/api/v1/documents/get_documents?${qs}`, { 'x-api-key': KEY });
        expectWellFormed(res, 'listDocuments');
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers any path id on get and retry with 200/202, 400, 404 or 409, never a 5xx', async () => {
    const id = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
      fc.double().map(String),
    );
    await fc.assert(
      fc.asyncProperty(id, fc.boolean(), async (raw, retry) => {
        const encoded = encodeURIComponent(raw);
        if (encoded === '' || encoded === '.' || encoded === '..') return;
        const before = retry ? await snapshot() : '';
        const path = retry ? `/api/v1/documents/retry_documents/${encoded}` : `/api/v1/documents/get_document/${encoded}`;
        const res = await send(retry ? 'POST' : 'GET', path, { 'x-api-key': KEY });
        expectWellFormed(res, retry ? 'retryDocument' : 'getDocument');
        if (retry && res.status >= 400) expect(await snapshot()).toBe(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers any API key and request id header with a problem or a documented success', async () => {
    const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 });
    await fc.assert(
      fc.asyncProperty(headerValue, headerValue, async (key, requestId) => {
        const res = await send('GET', '/api/v1/documents/get_documents', { 'x-api-key': key, 'x-request-id': requestId });
        expectWellFormed(res, 'listDocuments');
        if (key !== KEY) expect(res.status).toBe(401);
      }),
      { numRuns: RUNS },
    );
  });

  it('rejects random multipart bodies (odd field names, random bytes, cut boundaries) and stores nothing', async () => {
    const part = fc.record({
      field: fc.oneof(fc.constantFrom('files[]', 'files', 'file', 'files[0]', ''), fc.string({ maxLength: 20 })),
      filename: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(undefined)),
      bytes: fc.uint8Array({ maxLength: 300 }),
    });
    const body = fc.record({
      parts: fc.array(part, { maxLength: 4 }),
      cut: fc.option(fc.nat(), { nil: undefined }),
      boundary: fc.constantFrom('b0undary', 'x', '----WebKitFormBoundary7MA4YWxkTrZu0gW'),
    });
    await fc.assert(
      fc.asyncProperty(body, async ({ parts, cut, boundary }) => {
        const chunks: Buffer[] = [];
        for (const p of parts) {
          const disposition = `form-data; name="${p.field.replace(/["\r\n]/g, '')}"${p.filename === undefined ? '' : `; filename="${p.filename.replace(/["\r\n]/g, '')}"`}`;
          chunks.push(
            Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
            Buffer.from(p.bytes),
            Buffer.from('\r\n'),
          );
        }
        chunks.push(Buffer.from(`--${boundary}--\r\n`));
        let payload = Buffer.concat(chunks);
        if (cut !== undefined) payload = payload.subarray(0, cut % (payload.length + 1));
        const before = await snapshot();
        const res = await send(
          'POST',
          '/api/v1/documents/upload_files',
          {
            'x-api-key': KEY,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(payload.length),
          },
          payload,
        );
        expectWellFormed(res, 'uploadDocuments');
        // Random bytes are never a PDF/JPEG/PNG, so nothing here may be accepted.
        expect(res.status).not.toBe(202);
        expect(await snapshot()).toBe(before);
      }),
      { numRuns: RUNS },
    );
  });
});
