import { readFileSync } from 'node:fs';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real mock process (Prism's engine behind the kit's HTTP front), started the way a frontend
// developer starts it: `docproc mock`.
let mock: RunningCli;
let contract: Contract;
beforeAll(async () => {
  [mock, contract] = await Promise.all([startCli(['mock'], { readyPath: '/api/v1/documents/get_documents' }), loadContract()]);
}, 60_000);
afterAll(() => mock?.stop());

const KEY = { 'x-api-key': 'any-key-works-with-prism' };
// Real files: the mock judges a file by its bytes, as the contract says, so a PNG signature alone is a 415.
const pdf = new Blob([readFileSync(fixturePath('text.pdf'))], { type: 'application/pdf' });
const png = new Blob([readFileSync(fixturePath('scanned.png'))], { type: 'image/png' });

function twoFiles(): FormData {
  const form = new FormData();
  form.append('files[]', pdf, 'invoice.pdf');
  form.append('files[]', png, 'receipt.png');
  return form;
}

const rows: Array<{ name: string; operationId: string; path: string; init?: RequestInit; status: number }> = [
  { name: 'lists with a key', operationId: 'listDocuments', path: '/get_documents', init: { headers: KEY }, status: 200 },
  { name: 'refuses a list without a key', operationId: 'listDocuments', path: '/get_documents', status: 401 },
  { name: 'rejects page=abc', operationId: 'listDocuments', path: '/get_documents?page=abc', init: { headers: KEY }, status: 400 },
  { name: 'rejects limit=101', operationId: 'listDocuments', path: '/get_documents?limit=101', init: { headers: KEY }, status: 400 },
  { name: 'reads one document', operationId: 'getDocument', path: '/get_document/42', init: { headers: KEY }, status: 200 },
  { name: 'rejects a non-integer id', operationId: 'getDocument', path: '/get_document/abc', init: { headers: KEY }, status: 400 },
  { name: 'rejects id 0', operationId: 'getDocument', path: '/get_document/0', init: { headers: KEY }, status: 400 },
  { name: 'refuses a read without a key', operationId: 'getDocument', path: '/get_document/42', status: 401 },
  {
    name: 'retries a document',
    operationId: 'retryDocument',
    path: '/retry_documents/41',
    init: { method: 'POST', headers: KEY },
    status: 202,
  },
  {
    name: 'refuses a retry without a key',
    operationId: 'retryDocument',
    path: '/retry_documents/41',
    init: { method: 'POST' },
    status: 401,
  },
  {
    name: 'accepts a two-file upload',
    operationId: 'uploadDocuments',
    path: '/upload_files',
    init: { method: 'POST', headers: KEY, body: twoFiles() },
    status: 202,
  },
  {
    name: 'refuses an upload without a key',
    operationId: 'uploadDocuments',
    path: '/upload_files',
    init: { method: 'POST', body: twoFiles() },
    status: 401,
  },
];

describe("docproc mock (Prism's engine on the bundled contract)", () => {
  it.each(rows)('$name: $status with a body the contract documents', async ({ operationId, path, init, status }) => {
    const res = await fetch(`${mock.baseUrl}/api/v1/documents${path}`, init);
    expect(res.status).toBe(status);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const documented = contract.response(operationId, status)!;
    const [mediaType, media] = Object.entries(documented.content!)[0]!;
    expect(res.headers.get('content-type')).toContain(mediaType);
    const check = contract.validate(media.schema!, await res.json());
    expect(check.errors).toEqual([]);
  });

  it("serves the contract's examples, so frontends see realistic data", async () => {
    const res = await fetch(`${mock.baseUrl}/api/v1/documents/get_document/42`, { headers: KEY });
    expect(await res.json()).toMatchObject({ document_id: 42, filename: 'receipt-scan.png', status: 'completed' });
  });
});

describe('docproc mock beyond the examples', () => {
  it('echoes a sane X-Request-Id instead of the example id', async () => {
    const res = await fetch(`${mock.baseUrl}/api/v1/documents/get_document/42`, {
      headers: { ...KEY, 'x-request-id': 'frontend-trace-7' },
    });
    expect(res.headers.get('x-request-id')).toBe('frontend-trace-7');
  });

  it.each([
    { name: 'an unknown path', path: '/api/v1/documents/nope', method: 'GET', status: 404, code: 'not_found', allow: null },
    {
      name: 'a known path with another method',
      path: '/api/v1/documents/get_documents',
      method: 'DELETE',
      status: 405,
      code: 'method_not_allowed',
      allow: 'GET',
    },
  ])('answers $name with a $status problem', async ({ path, method, status, code, allow }) => {
    const res = await fetch(mock.baseUrl + path, { method, headers: KEY });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('allow')).toBe(allow);
    expect(await res.json()).toMatchObject({ status, code });
  });

  it("still follows Prism's per-request choices: Prefer: code=404", async () => {
    const res = await fetch(`${mock.baseUrl}/api/v1/documents/get_document/42`, { headers: { ...KEY, prefer: 'code=404' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });

  it("names what was invalid in Prism's sl-violations header", async () => {
    const res = await fetch(`${mock.baseUrl}/api/v1/documents/get_documents?page=abc`, { headers: KEY });
    expect(res.status).toBe(400);
    expect(res.headers.get('sl-violations')).toContain('page');
  });

  it.each([
    { query: 'limit=1000', errors: [{ in: 'query', name: 'limit', message: 'must be <= 100' }] },
    { query: 'status_filter=bogus', errors: [{ in: 'query', name: 'status_filter', message: expect.stringContaining('allowed values') }] },
    {
      query: 'limit=1000&status_filter=bogus',
      errors: [
        { in: 'query', name: 'limit', message: 'must be <= 100' },
        { in: 'query', name: 'status_filter', message: expect.stringContaining('allowed values') },
      ],
    },
  ])('lists the parameters that are wrong in the 400 body, in the contract errors shape: $query', async ({ query, errors }) => {
    const res = await fetch(`${mock.baseUrl}/api/v1/documents/get_documents?${query}`, { headers: KEY });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({
      code: 'invalid_request',
      detail: `The request has ${errors.length} invalid parameter${errors.length === 1 ? '' : 's'}.`,
    });
    expect(body.errors).toEqual(errors);
    const schema = contract.response('listDocuments', 400)!.content!['application/problem+json']!.schema!;
    expect(contract.validate(schema, body).errors).toEqual([]);
    expect(res.headers.get('sl-violations')).toContain(
      'limit' in Object.fromEntries(new URLSearchParams(query)) ? 'limit' : 'status_filter',
    );
  });

  it('names a bad path parameter as in: path', async () => {
    const res = await fetch(`${mock.baseUrl}/api/v1/documents/get_document/abc`, { headers: KEY });
    expect((await res.json()).errors).toEqual([{ in: 'path', name: 'document_id', message: 'must be integer' }]);
  });

  it('never claims an upload was replayed (it keeps nothing to replay)', async () => {
    const res = await fetch(`${mock.baseUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: KEY, body: twoFiles() });
    expect(res.status).toBe(202);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('docproc mock --dynamic', () => {
  it('generates bodies from the schemas instead of serving the examples', async () => {
    const dynamic = await startCli(['mock', '--dynamic'], { readyPath: '/api/v1/documents/get_documents' });
    try {
      const res = await fetch(`${dynamic.baseUrl}/api/v1/documents/get_document/42`, { headers: KEY });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(contract.validate(contract.response('getDocument', 200)!.content!['application/json']!.schema!, body).errors).toEqual([]);
      expect(body.filename).not.toBe('receipt-scan.png');
    } finally {
      await dynamic.stop();
    }
  }, 60_000);
});
