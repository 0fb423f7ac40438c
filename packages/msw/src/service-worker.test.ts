import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { launchChromium } from '@docproc-kit/test-support/chromium.js';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A page that starts msw/browser's service worker with createDocprocHandlers and talks to the mock with the
// typed client, in headless Chromium: the handlers run in the page, pdf.js included, the worker only relays.
// The API's base URL is another origin that does not exist: nothing leaves the browser.
const BASE_URL = 'http://docproc.browser.test';
// Another mock, started from a recording (the seed option), under a base URL of its own.
const SEEDED_URL = 'http://docproc.seeded.test';
const page = `
import { setupWorker } from 'msw/browser';
import { createDocprocHandlers } from './msw.ts';
import { RECORDING } from '../test/recording-sample.ts';
import { createDocprocClient } from '@docproc-kit/client';
const mock = createDocprocHandlers({ baseUrl: '${BASE_URL}', processingDelayMs: 0, extractText: () => 'RECEIPT 20931' });
const seeded = createDocprocHandlers({ baseUrl: '${SEEDED_URL}', processingDelayMs: 0, seed: RECORDING });
await setupWorker(...mock, ...seeded).start({ quiet: true, onUnhandledRequest: 'bypass' });
window.docproc = {
  mock,
  client: createDocprocClient({ baseUrl: '${BASE_URL}', apiKey: 'docproc-dev-key' }),
  seeded: createDocprocClient({ baseUrl: '${SEEDED_URL}', apiKey: 'docproc-dev-key' }),
};
document.title = 'ready';
`;

let server: Server;
let origin: string;
let browser: Browser;
let tab: Page;

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: page, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts', sourcefile: 'page.ts' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    // The other packages' TypeScript sources, as the tests read them (their \`docproc-source\` export).
    conditions: ['docproc-source'],
    outdir: '/',
    entryNames: 'page',
    write: false,
    logLevel: 'silent',
  });
  const files = new Map<string, { type: string; body: Uint8Array | string }>(
    bundle.outputFiles.map((f) => [f.path, { type: 'text/javascript', body: f.contents }]),
  );
  files.set('/', { type: 'text/html', body: '<!doctype html><script type="module" src="/page.js"></script>' });
  files.set('/mockServiceWorker.js', {
    type: 'text/javascript',
    body: await readFile(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')),
  });
  files.set('/text.pdf', { type: 'application/pdf', body: await readFile(fixturePath('text.pdf')) });
  files.set('/scanned.png', { type: 'image/png', body: await readFile(fixturePath('scanned.png')) });
  server = createServer((req, res) => {
    const file = files.get(req.url ?? '');
    res.writeHead(file ? 200 : 404, { 'content-type': file?.type ?? 'text/plain' }).end(file?.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  tab = await browser.newPage();
  await tab.goto(`${origin}/`);
  await tab.waitForFunction(() => document.title === 'ready', undefined, { timeout: 30_000 });
}, 90_000);
afterAll(async () => {
  await browser?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
});

describe('createDocprocHandlers in Chromium, behind msw/browser service worker, driven by the typed client', () => {
  it('uploads a PDF and an image, processes them (the PDF by its text layer with pdf.js, the image by extractText), and finds both by their text', async () => {
    const result = await tab.evaluate(async () => {
      const { client } = (window as unknown as { docproc: { client: import('@docproc-kit/client').DocprocClient } }).docproc;
      const file = async (path: string, name: string) => new File([await (await fetch(path)).blob()], name);
      const upload = await client.uploadDocuments([await file('/text.pdf', 'invoice.pdf'), await file('/scanned.png', 'receipt.png')]);
      if (upload.error) return { error: upload.error };
      const done = await Promise.all(upload.data.documents.map((d) => client.waitForDocument(d.document_id, { timeoutMs: 20_000 })));
      const pelican = await client.listDocuments({ search: 'pelican' });
      const receipt = await client.listDocuments({ search: 'receipt 20931' });
      return {
        status: upload.response.status,
        requestId: upload.response.headers.get('x-request-id'),
        finished: done.map((d) => ({ status: d.data?.status, content: d.data?.content })),
        pelican: pelican.data?.documents.map((d) => d.filename),
        receipt: receipt.data?.documents.map((d) => d.filename),
      };
    });
    expect(result).toEqual({
      status: 202,
      requestId: expect.any(String),
      finished: [
        { status: 'completed', content: expect.stringContaining('PELICAN') },
        { status: 'completed', content: 'RECEIPT 20931' },
      ],
      pelican: ['invoice.pdf'],
      receipt: ['receipt.png'],
    });
  });

  it('starts from a recording (the seed option): lists its documents, finds one by a word of its text, and retries its failure', async () => {
    const result = await tab.evaluate(async () => {
      const { seeded } = (window as unknown as { docproc: { seeded: import('@docproc-kit/client').DocprocClient } }).docproc;
      const listed = await seeded.listDocuments();
      const failed = listed.data!.documents.find((d) => d.status === 'failed')!;
      const retried = await seeded.retryDocument(failed.document_id);
      const done = await seeded.waitForDocument(failed.document_id, { timeoutMs: 20_000 });
      return {
        listed: listed.data?.documents.map((d) => [d.filename, d.status, d.attempts]),
        found: (await seeded.listDocuments({ search: 'ромашка' })).data?.documents.map((d) => d.filename),
        retried: [retried.response.status, retried.data?.status, retried.data?.attempts],
        done: [done.data?.status, done.data?.attempts],
      };
    });
    expect(result).toEqual({
      listed: [
        ['scan 2024-05-02.png', 'failed', 2],
        ['請求書.pdf', 'completed', 2],
        ['Счёт-фактура №17.pdf', 'completed', 1],
      ],
      found: ['Счёт-фактура №17.pdf'],
      retried: [202, 'processing', 3],
      done: ['completed', 3],
    });
  });

  it('arranges states with the controls as functions, and answers other tenants, paths and methods as the server does', async () => {
    const result = await tab.evaluate(async (baseUrl) => {
      type Docproc = { mock: import('./msw.js').DocprocHandlers; client: import('@docproc-kit/client').DocprocClient };
      const { mock, client } = (window as unknown as { docproc: Docproc }).docproc;
      await mock.controls.reset();
      await mock.controls.seed([
        { status: 'failed', count: 3 },
        { status: 'completed', filename: 'old-{n}.pdf', count: 25 },
      ]);
      const failed = await client.listDocuments({ status_filter: 'failed' });
      const page2 = await client.listDocuments({ page: 2 });
      const stranger = await fetch(`${baseUrl}/api/v1/documents/get_documents`, { headers: { 'x-api-key': 'not-a-key' } });
      const wrongMethod = await fetch(`${baseUrl}/api/v1/documents/get_documents`, {
        method: 'DELETE',
        headers: { 'x-api-key': 'docproc-dev-key' },
      });
      return {
        failed: failed.data?.pagination.total,
        page2: page2.data?.documents.length,
        total: page2.data?.pagination.total,
        stranger: [stranger.status, (await stranger.json()).code],
        wrongMethod: [wrongMethod.status, wrongMethod.headers.get('allow')],
      };
    }, BASE_URL);
    expect(result).toEqual({ failed: 3, page2: 8, total: 28, stranger: [401, 'unauthorized'], wrongMethod: [405, 'GET, HEAD'] });
  });
});
