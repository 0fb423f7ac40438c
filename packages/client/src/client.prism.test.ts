import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { type ClientError, createDocprocClient, type Document, type DocumentList } from './index.js';

// The client against the real Prism mock of the contract: proves it speaks the contract's wire format.
let prism: RunningCli;
beforeAll(async () => {
  prism = await startCli(['mock'], { readyPath: '/api/v1/documents/get_documents' });
}, 60_000);
afterAll(() => prism?.stop());

const client = () => createDocprocClient({ baseUrl: prism.baseUrl, apiKey: 'docproc-dev-key' });
const fixture = (name: string) => readFile(fixturePath(name));

describe('the typed client against the Prism mock', () => {
  it('uploads a File and a named Buffer as repeated files[] parts and gets typed documents back', async () => {
    const pdf = new File([await fixture('text.pdf')], 'invoice.pdf', { type: 'application/pdf' });
    const { data, error, response } = await client().uploadDocuments([pdf, { name: 'receipt.png', data: await fixture('scanned.png') }]);
    expect(error).toBeUndefined();
    expect(response.status).toBe(202);
    expectTypeOf(data!.documents).toEqualTypeOf<Document[]>();
    expect(data!.documents.map((d) => d.status)).toEqual(['processing', 'processing']);
  });

  it('lists a page with pagination totals', async () => {
    const { data } = await client().listDocuments({ page: 1, limit: 20, status_filter: 'completed' });
    expectTypeOf(data).toEqualTypeOf<DocumentList | undefined>();
    expect(data!.pagination).toMatchObject({ page: 1, limit: 20 });
  });

  it('reads one document and retries one', async () => {
    const docproc = client();
    expect((await docproc.getDocument(42)).data).toMatchObject({ document_id: 42 });
    expect((await docproc.retryDocument(41)).data).toMatchObject({ status: 'processing', attempts: 2 });
  });

  it('returns a 400 as a typed problem value instead of throwing', async () => {
    const { data, error, response } = await client().listDocuments({ limit: 500 });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expectTypeOf(error).toEqualTypeOf<ClientError | undefined>();
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('returns a missing key as an unauthorized problem', async () => {
    const anonymous = createDocprocClient({
      baseUrl: prism.baseUrl,
      apiKey: 'unused',
      // Drop the key on the way out, as a misconfigured proxy would.
      fetch: (input) => {
        const request = new Request(input as Request);
        request.headers.delete('x-api-key');
        return fetch(request);
      },
    });
    expect((await anonymous.getDocument(1)).error).toMatchObject({ status: 401, code: 'unauthorized' });
  });
});

describe('the typed client against a non-problem error', () => {
  let server: Server;
  beforeAll(async () => {
    // A real HTTP server standing in for a misbehaving gateway in front of the service.
    server = createServer((req, res) =>
      req.url?.includes('get_documents')
        ? // A dev server's fallback page for a path it does not know: a 200, but no answer of the API.
          res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><div id="root"></div>')
        : res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('reports an HTML 502 as an unexpected_response with the status and the body', async () => {
    const { port } = server.address() as AddressInfo;
    const { error } = await createDocprocClient({ baseUrl: `http://127.0.0.1:${port}/`, apiKey: 'k' }).getDocument(1);
    expect(error).toMatchObject({ status: 502, code: 'unexpected_response', detail: expect.stringContaining('Bad gateway') });
  });

  it('reports a 200 HTML page as an unexpected_response, not a thrown SyntaxError', async () => {
    const { port } = server.address() as AddressInfo;
    const { data, error } = await createDocprocClient({ baseUrl: `http://127.0.0.1:${port}/`, apiKey: 'k' }).listDocuments();
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ status: 200, code: 'unexpected_response', detail: expect.stringContaining('text/html') });
  });
});

describe('the client bundle', () => {
  it('builds for the browser without any Node built-in', async () => {
    const result = await build({
      entryPoints: [new URL('./index.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]!.text).not.toMatch(/from\s*["']node:/);
  });
});
