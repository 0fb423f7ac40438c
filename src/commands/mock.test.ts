import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../contract/contract.js';
import { startCli, type RunningCli } from '../../test/support/processes.js';

// The real Prism process, started the way a frontend developer starts it: `docproc mock`.
let mock: RunningCli;
let contract: Contract;
beforeAll(async () => {
  [mock, contract] = await Promise.all([startCli(['mock'], { readyPath: '/api/v1/documents/get_documents' }), loadContract()]);
}, 60_000);
afterAll(() => mock?.stop());

const KEY = { 'x-api-key': 'any-key-works-with-prism' };
const pdf = new Blob(['%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n'], { type: 'application/pdf' });
const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], { type: 'image/png' });

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
  { name: 'retries a document', operationId: 'retryDocument', path: '/retry_documents/41', init: { method: 'POST', headers: KEY }, status: 202 },
  { name: 'refuses a retry without a key', operationId: 'retryDocument', path: '/retry_documents/41', init: { method: 'POST' }, status: 401 },
  { name: 'accepts a two-file upload', operationId: 'uploadDocuments', path: '/upload_files', init: { method: 'POST', headers: KEY, body: twoFiles() }, status: 202 },
  { name: 'refuses an upload without a key', operationId: 'uploadDocuments', path: '/upload_files', init: { method: 'POST', body: twoFiles() }, status: 401 },
];

describe('docproc mock (Prism on the bundled contract)', () => {
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

  it('serves the contract\'s examples, so frontends see realistic data', async () => {
    const res = await fetch(`${mock.baseUrl}/api/v1/documents/get_document/42`, { headers: KEY });
    expect(await res.json()).toMatchObject({ document_id: 42, filename: 'receipt-scan.png', status: 'completed' });
  });
});
