import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadContract } from '../../contract/contract.js';
import { bundledSpecPath } from '../../paths.js';
import { startReferenceServer, type RunningReferenceServer } from '../../../test/support/reference-server.js';

// The API reference: /openapi.json is the contract pointed at this server, and /docs is an
// interactive page, driven here in headless Chromium.
let server: RunningReferenceServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startReferenceServer(),
    chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    }),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('GET /openapi.json', () => {
  it('is the bundled contract, served without a key, with its server pointed at this server', async () => {
    const res = await fetch(`${server.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    const served = await res.json();
    const authored = parse(await readFile(bundledSpecPath, 'utf8'));
    expect(served).toEqual({ ...authored, servers: [{ url: server.baseUrl, description: expect.any(String) }] });
  });

  it('is a valid OpenAPI document as served', async () => {
    // swagger-parser refuses loopback URLs (SSRF protection), so the served bytes go through a file.
    const dir = await mkdtemp(join(tmpdir(), 'docproc-openapi-'));
    const file = join(dir, 'openapi.json');
    await writeFile(file, await (await fetch(`${server.baseUrl}/openapi.json`)).text());
    const contract = await loadContract(file).finally(() => rm(dir, { recursive: true, force: true }));
    expect(contract.operations.map((op) => op.operationId).sort()).toEqual(['getDocument', 'listDocuments', 'retryDocument', 'uploadDocuments']);
  });
});

describe('GET /docs in a browser', () => {
  it('loads without a key, lists the four operations, and "Try it out" lists documents from this server', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      const res = await page.goto(`${server.baseUrl}/docs`);
      expect(res?.status()).toBe(200);
      await page.waitForSelector('.opblock', { timeout: 20_000 });
      const paths = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((n) => n.getAttribute('data-path')));
      expect(paths.sort()).toEqual([
        '/api/v1/documents/get_document/{document_id}',
        '/api/v1/documents/get_documents',
        '/api/v1/documents/retry_documents/{document_id}',
        '/api/v1/documents/upload_files',
      ]);

      const list = page.locator('.opblock', { has: page.locator('[data-path="/api/v1/documents/get_documents"]') });
      await list.locator('.opblock-summary').click();
      await list.locator('.try-out__btn').click();
      const listed = page.waitForResponse((r) => r.url().startsWith(`${server.baseUrl}/api/v1/documents/get_documents`));
      await list.locator('.execute').click();
      const response = await listed;
      // The page sent the pre-filled dev key: the server answered the real list.
      expect(response.status()).toBe(200);
      expect(await response.json()).toMatchObject({ documents: [], pagination: { page: 1, limit: 20, total: 0, total_pages: 0 } });
      await expect.poll(() => list.locator('.live-responses-table tbody .response-col_status').first().textContent()).toContain('200');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('does not pre-fill a configured key', async () => {
    const keyed = await startReferenceServer({ apiKeys: ['secret-configured-key'] });
    try {
      const script = await (await fetch(`${keyed.baseUrl}/docs/init.js`)).text();
      expect(script).not.toContain('secret-configured-key');
      expect(script).not.toContain('preauthorizeApiKey');
    } finally {
      await keyed.close();
    }
  });
});
