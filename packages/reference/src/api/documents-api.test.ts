import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import {
  type CheckedInit,
  contractFetch,
  fixture,
  type RunningReferenceServer,
  startReferenceInProcess,
  until,
} from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Every documented response of every operation, produced by a real request to a real server and
// checked against the contract (status, media type, body schema, X-Request-Id, Allow).
const KEY = 'rows-key';
const BUSY_KEY = 'busy-key';
// Tenants whose every API request is refused by a fault injected through the mock controls.
const FAULT_KEYS = { 429: 'too-many-key', 503: 'unavailable-key' } as const;
let server: RunningReferenceServer;
let contract: Contract;
let call: ReturnType<typeof contractFetch>;
let done: number; // a completed document of KEY
let busy: number; // a document of BUSY_KEY that stays processing

const API = '/api/v1/documents';
const MAX_FILE_BYTES = 64 * 1024;
const MAX_FILES = 3;

function form(parts: Array<[field: string, blob: Blob | string, filename?: string]>): FormData {
  const body = new FormData();
  for (const [field, blob, filename] of parts) {
    if (typeof blob === 'string') body.append(field, blob);
    else body.append(field, blob, filename);
  }
  return body;
}

beforeAll(async () => {
  [server, contract] = await Promise.all([
    startReferenceInProcess({ apiKeys: [KEY, BUSY_KEY, ...Object.values(FAULT_KEYS)], maxFileBytes: MAX_FILE_BYTES, maxFiles: MAX_FILES }),
    loadContract(),
  ]);
  call = contractFetch(server, contract);
  const pdf = await fixture('text.pdf');
  const uploaded = await call('uploadDocuments', `${API}/upload_files`, { method: 'POST', body: form([['files[]', pdf, 'invoice.pdf']]) });
  done = uploaded.body.documents[0].document_id;
  await call('uploadDocuments', `${API}/upload_files`, {
    method: 'POST',
    headers: { 'Idempotency-Key': 'row-key' },
    body: form([['files[]', pdf, 'first.pdf']]),
  });
  // The busy tenant's runs last ten minutes, so its document is reliably `processing`.
  await server.fetch(`${server.baseUrl}/_mock/settings`, {
    method: 'PATCH',
    headers: { 'x-api-key': BUSY_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ processing_delay_ms: 600_000 }),
  });
  const slow = await call('uploadDocuments', `${API}/upload_files`, {
    method: 'POST',
    apiKey: BUSY_KEY,
    body: form([['files[]', pdf, 'slow.pdf']]),
  });
  busy = slow.body.documents[0].document_id;
  for (const [status, apiKey] of Object.entries(FAULT_KEYS)) {
    const every = { rate: 1, status: Number(status), retry_after_s: 2 };
    const rules = Object.fromEntries(['uploadDocuments', 'listDocuments', 'getDocument', 'retryDocument'].map((op) => [op, every]));
    await server.fetch(`${server.baseUrl}/_mock/faults`, {
      method: 'PATCH',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ errors: rules }),
    });
  }
  await settled(done);
}, 60_000);
afterAll(() => server?.close());

/** Waits until KEY's document has finished its run (the busy tenant's never does). */
async function settled(id: number): Promise<void> {
  const finished = await until(
    async () => (await call('getDocument', `${API}/get_document/${id}`, { apiKey: KEY })).body.status !== 'processing',
  );
  if (!finished) throw new Error(`document ${id} is still processing`);
}

interface Row {
  name: string;
  operationId: string;
  path: () => string;
  init?: () => Promise<CheckedInit> | CheckedInit;
  status: number;
  code?: string;
}

const rows: Row[] = [
  // uploadDocuments
  {
    name: 'accepts two files',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    init: async () => ({
      method: 'POST',
      body: form([
        ['files[]', await fixture('text.pdf'), 'a.pdf'],
        ['files[]', await fixture('scanned.png'), 'b.png'],
      ]),
    }),
    status: 202,
  },
  {
    name: 'refuses an upload without a key',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    init: async () => ({ method: 'POST', apiKey: null, body: form([['files[]', await fixture('text.pdf'), 'a.pdf']]) }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'refuses an upload with an unknown key',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    init: async () => ({ method: 'POST', apiKey: 'nope', body: form([['files[]', await fixture('text.pdf'), 'a.pdf']]) }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'refuses a multipart body without files',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    init: () => ({ method: 'POST', body: new FormData() }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'refuses a file under another field name',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    init: async () => ({ method: 'POST', body: form([['file', await fixture('text.pdf'), 'a.pdf']]) }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'refuses a JSON body',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    init: () => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'refuses a file over the size limit',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    init: () => ({ method: 'POST', body: form([['files[]', new Blob(['%PDF-1.7\n', new Uint8Array(MAX_FILE_BYTES)]), 'big.pdf']]) }),
    status: 413,
    code: 'file_too_large',
  },
  {
    name: 'refuses more files than the limit',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    init: async () => ({
      method: 'POST',
      body: form(
        Array.from({ length: MAX_FILES + 1 }, (_, i): [string, Blob, string] => ['files[]', new Blob(['%PDF-1.7\n%%EOF\n']), `${i}.pdf`]),
      ),
    }),
    status: 413,
    code: 'too_many_files',
  },
  {
    name: 'refuses a text file named .png',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    init: async () => ({ method: 'POST', body: form([['files[]', await fixture('text-named.png'), 'text-named.png']]) }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'refuses an Idempotency-Key reused for other files',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    init: async () => ({
      method: 'POST',
      headers: { 'Idempotency-Key': 'row-key' },
      body: form([['files[]', await fixture('scanned.png'), 'other.png']]),
    }),
    status: 409,
    code: 'idempotency_key_reused',
  },
  {
    name: 'answers GET on the upload path with 405',
    operationId: 'uploadDocuments',
    path: () => `${API}/upload_files`,
    status: 405,
    code: 'method_not_allowed',
  },
  // listDocuments
  { name: 'lists with a key', operationId: 'listDocuments', path: () => `${API}/get_documents`, status: 200 },
  {
    name: 'answers HEAD on the list like GET, without a body',
    operationId: 'listDocuments',
    path: () => `${API}/get_documents`,
    init: () => ({ method: 'HEAD' }),
    status: 200,
  },
  {
    name: 'refuses a list without a key',
    operationId: 'listDocuments',
    path: () => `${API}/get_documents`,
    init: () => ({ apiKey: null }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'checks the key before the parameters',
    operationId: 'listDocuments',
    path: () => `${API}/get_documents?page=abc`,
    init: () => ({ apiKey: null }),
    status: 401,
    code: 'unauthorized',
  },
  { name: 'refuses page=0', operationId: 'listDocuments', path: () => `${API}/get_documents?page=0`, status: 400, code: 'invalid_request' },
  {
    name: 'refuses limit=101 instead of clamping it',
    operationId: 'listDocuments',
    path: () => `${API}/get_documents?limit=101`,
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'answers POST on the list path with 405',
    operationId: 'listDocuments',
    path: () => `${API}/get_documents`,
    init: () => ({ method: 'POST' }),
    status: 405,
    code: 'method_not_allowed',
  },
  // getDocument
  { name: 'reads a document', operationId: 'getDocument', path: () => `${API}/get_document/${done}`, status: 200 },
  {
    name: 'refuses a read without a key',
    operationId: 'getDocument',
    path: () => `${API}/get_document/${done}`,
    init: () => ({ apiKey: null }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'refuses a non-integer id',
    operationId: 'getDocument',
    path: () => `${API}/get_document/abc`,
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'does not find an unknown id',
    operationId: 'getDocument',
    path: () => `${API}/get_document/9007199254740991`,
    status: 404,
    code: 'not_found',
  },
  {
    name: "does not find another tenant's document",
    operationId: 'getDocument',
    path: () => `${API}/get_document/${busy}`,
    status: 404,
    code: 'not_found',
  },
  {
    name: 'answers DELETE on a document with 405',
    operationId: 'getDocument',
    path: () => `${API}/get_document/${done}`,
    init: () => ({ method: 'DELETE' }),
    status: 405,
    code: 'method_not_allowed',
  },
  // retryDocument
  {
    name: 'refuses a retry without a key',
    operationId: 'retryDocument',
    path: () => `${API}/retry_documents/${done}`,
    init: () => ({ method: 'POST', apiKey: null }),
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'refuses a retry of id 0',
    operationId: 'retryDocument',
    path: () => `${API}/retry_documents/0`,
    init: () => ({ method: 'POST' }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'does not find an unknown document to retry',
    operationId: 'retryDocument',
    path: () => `${API}/retry_documents/424242`,
    init: () => ({ method: 'POST' }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'refuses a retry while processing',
    operationId: 'retryDocument',
    path: () => `${API}/retry_documents/${busy}`,
    init: () => ({ method: 'POST', apiKey: BUSY_KEY }),
    status: 409,
    code: 'document_busy',
  },
  {
    name: 'answers GET on the retry path with 405',
    operationId: 'retryDocument',
    path: () => `${API}/retry_documents/${done}`,
    status: 405,
    code: 'method_not_allowed',
  },
  {
    name: 'retries a completed document',
    operationId: 'retryDocument',
    path: () => `${API}/retry_documents/${done}`,
    init: () => ({ method: 'POST' }),
    status: 202,
  },
  // 429 and 503 with Retry-After, as the mock controls inject them (PATCH /_mock/faults)
  ...([429, 503] as const).flatMap((status): Row[] => {
    const apiKey = FAULT_KEYS[status];
    const code = status === 429 ? 'too_many_requests' : 'service_unavailable';
    return [
      {
        name: `answers an upload ${status} when a fault is injected`,
        operationId: 'uploadDocuments',
        path: () => `${API}/upload_files`,
        init: async () => ({ method: 'POST', apiKey, body: form([['files[]', await fixture('text.pdf'), 'a.pdf']]) }),
        status,
        code,
      },
      {
        name: `answers a list ${status} when a fault is injected`,
        operationId: 'listDocuments',
        path: () => `${API}/get_documents`,
        init: () => ({ apiKey }),
        status,
        code,
      },
      {
        name: `answers a read ${status} when a fault is injected`,
        operationId: 'getDocument',
        path: () => `${API}/get_document/${done}`,
        init: () => ({ apiKey }),
        status,
        code,
      },
      {
        name: `answers a retry ${status} when a fault is injected`,
        operationId: 'retryDocument',
        path: () => `${API}/retry_documents/${done}`,
        init: () => ({ method: 'POST', apiKey }),
        status,
        code,
      },
    ];
  }),
];

describe('every documented response, from the real server', () => {
  it.each(rows)('$operationId $name: $status', async ({ operationId, path, init, status, code }) => {
    const res = await call(operationId, path(), { apiKey: KEY, ...(await init?.()) });
    expect(res.status).toBe(status);
    if (code) expect(res.body).toMatchObject({ type: 'about:blank', status, code, request_id: res.headers.get('x-request-id') });
    if (status === 405) {
      const documented = contract.methodsFor(path()).map((m) => m.toUpperCase());
      expect(res.headers.get('allow')!.split(', ')).toEqual(expect.arrayContaining(documented));
    }
  });

  it('covers every operation and every status the contract documents for it (bar 500, see http-behaviour.test.ts)', () => {
    const covered = new Set(rows.map((r) => `${r.operationId} ${r.status}`));
    const missing = contract.operations.flatMap((op) =>
      Object.keys(op.definition.responses ?? {})
        .filter((status) => status !== '500')
        .map((status) => `${op.operationId} ${status}`)
        .filter((key) => !covered.has(key)),
    );
    expect(missing).toEqual([]);
  });
});

describe('a 2xx body carries what the request did', () => {
  it('an upload answers one processing document per part, in part order, with the detected type and size', async () => {
    const [pdf, png, jpg] = await Promise.all([fixture('text.pdf'), fixture('scanned.png'), fixture('photo.jpg')]);
    // Part Content-Types are deliberately wrong: the type comes from the bytes.
    const body = new FormData();
    body.append('files[]', new Blob([png], { type: 'application/pdf' }), 'first.png');
    body.append('files[]', new Blob([pdf], { type: 'image/png' }), 'second.pdf');
    body.append('files[]', new Blob([jpg], { type: 'text/plain' }), 'third.jpg');
    const { body: result } = await call('uploadDocuments', `${API}/upload_files`, { method: 'POST', apiKey: KEY, body });
    expect(
      result.documents.map((d: { filename: string; content_type: string; size_bytes: number }) => [
        d.filename,
        d.content_type,
        d.size_bytes,
      ]),
    ).toEqual([
      ['first.png', 'image/png', png.size],
      ['second.pdf', 'application/pdf', pdf.size],
      ['third.jpg', 'image/jpeg', jpg.size],
    ]);
    const ids = result.documents.map((d: { document_id: number }) => d.document_id);
    expect(ids).toEqual([ids[0], ids[0] + 1, ids[0] + 2]);
    expect(
      result.documents.every((d: object) =>
        expect.objectContaining({ status: 'processing', attempts: 1, content: null, error: null, processed_at: null }).asymmetricMatch(d),
      ),
    ).toBe(true);
  });

  it('a retry answers the document processing again, one attempt more, with text, error and processed_at cleared', async () => {
    const upload = await call('uploadDocuments', `${API}/upload_files`, {
      method: 'POST',
      apiKey: KEY,
      body: form([['files[]', await fixture('text.pdf'), 'again.pdf']]),
    });
    const id = upload.body.documents[0].document_id;
    await settled(id);
    const before = await call('getDocument', `${API}/get_document/${id}`, { apiKey: KEY });
    expect(before.body).toMatchObject({ status: 'completed', attempts: 1, content: expect.stringContaining('PELICAN') });
    const retried = await call('retryDocument', `${API}/retry_documents/${id}`, { method: 'POST', apiKey: KEY });
    expect(retried.body).toMatchObject({
      document_id: id,
      status: 'processing',
      attempts: 2,
      content: null,
      error: null,
      processed_at: null,
    });
    expect(retried.body.created_at).toBe(before.body.created_at);
    expect(Date.parse(retried.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.body.updated_at));
  });
});

describe('path ids: a positive integer within 2^53-1, decimal digits only', () => {
  it.each(['0', '-1', '1.5', 'abc', '1e3', '0x10', '%2B1', '%201', '9007199254740992', '123456789012345678901234567890'])(
    '%s is a 400 naming document_id',
    async (raw) => {
      for (const [operationId, path, method] of [
        ['getDocument', `${API}/get_document/${raw}`, 'GET'],
        ['retryDocument', `${API}/retry_documents/${raw}`, 'POST'],
      ] as const) {
        const res = await call(operationId, path, { method, apiKey: KEY });
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual([{ in: 'path', name: 'document_id', message: expect.any(String) }]);
      }
    },
  );

  it('2^53-1 itself is a valid id (404 when nobody has it)', async () => {
    expect((await call('getDocument', `${API}/get_document/9007199254740991`, { apiKey: KEY })).status).toBe(404);
  });
});

describe('paths and methods outside the four operations', () => {
  const problem = () => contract.document.components!.schemas!.Problem as object;

  it('an unknown /api/v1 path is a 404 problem, after the key check', async () => {
    const withKey = await server.fetch(`${server.baseUrl}/api/v1/documents/nope`, { headers: { 'x-api-key': KEY } });
    expect(withKey.status).toBe(404);
    expect(withKey.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = await withKey.json();
    expect(contract.validate(problem(), body).errors).toEqual([]);
    expect(body.code).toBe('not_found');
    const withoutKey = await server.fetch(`${server.baseUrl}/api/v1/documents/nope`);
    expect(withoutKey.status).toBe(401);
  });

  it('an unknown path outside /api/v1 is a 404 problem with a request id', async () => {
    const res = await server.fetch(`${server.baseUrl}/favicon.ico`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(contract.validate(problem(), await res.json()).errors).toEqual([]);
  });

  it('API responses are never cacheable, so polling always sees fresh state', async () => {
    const res = await call('listDocuments', `${API}/get_documents`, { apiKey: KEY });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
  });
});
