import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { launchChromium } from '@docproc-kit/test-support/chromium.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import express from 'express';
import { load } from 'js-yaml';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../http-server.js';
import { referenceRoutes } from './docs-routes.js';

// The API reference: /openapi.json is the contract pointed at this server, and /docs is an
// interactive page, driven here in headless Chromium.
let server: RunningReferenceServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startReferenceServer(), launchChromium()]);
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
    const authored = load(await readFile(bundledSpecPath, 'utf8')) as Record<string, unknown>;
    expect(served).toEqual({ ...authored, servers: [{ url: server.baseUrl, description: expect.any(String) }] });
  });

  it('is a valid OpenAPI document as served', async () => {
    // swagger-parser refuses loopback URLs (SSRF protection), so the served bytes go through a file.
    const dir = await mkdtemp(join(tmpdir(), 'docproc-openapi-'));
    const file = join(dir, 'openapi.json');
    await writeFile(file, await (await fetch(`${server.baseUrl}/openapi.json`)).text());
    const contract = await loadContract(file).finally(() => rm(dir, { recursive: true, force: true }));
    expect(contract.operations.map((op) => op.operationId).sort()).toEqual([
      'getDocument',
      'listDocuments',
      'retryDocument',
      'uploadDocuments',
    ]);
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
      // The page sent the pre-filled dev key and nothing the person did not type: the real, whole list.
      expect(response.status()).toBe(200);
      expect(new URL(response.url()).search).toBe('');
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

describe('GET /docs/openapi.json (what the docs page loads)', () => {
  it('is the contract with each parameter example and default moved into its description, nothing else changed', async () => {
    const served = await (await fetch(`${server.baseUrl}/docs/openapi.json`)).json();
    const authored = load(await readFile(bundledSpecPath, 'utf8')) as { components: object };
    const parameters = served.components.parameters as Record<string, { description: string; schema: object; examples?: unknown }>;
    for (const [name, parameter] of Object.entries(parameters)) {
      expect(parameter.examples, name).toBeUndefined();
      expect(parameter.schema, name).not.toHaveProperty('default');
    }
    expect(parameters.IdempotencyKey!.description).toContain('8e0f7a4e-1c55-4d8e-9a3b-2f6d0c1b7e90');
    expect(parameters.Search!.description).toContain('sourdough');
    expect(parameters.Page!.description).toContain('Default when not sent: `1`');
    expect({ ...served, components: { ...served.components, parameters: undefined } }).toEqual({
      ...authored,
      components: { ...authored.components, parameters: undefined },
      servers: [{ url: server.baseUrl, description: expect.any(String) }],
    });
  });
});

describe('"Try it out" sends only what the person typed', () => {
  const KEY = { 'x-api-key': 'docproc-dev-key' };

  it('uploads twice with different files (two new sets of ids), then lists exactly one status', async () => {
    // A server of its own, so the list holds exactly these uploads.
    const own = await startReferenceServer();
    const page = await browser.newPage();
    try {
      await page.goto(`${own.baseUrl}/docs`);
      await page.waitForSelector('.opblock', { timeout: 20_000 });
      const upload = page.locator('.opblock', { has: page.locator('[data-path="/api/v1/documents/upload_files"]') });
      await upload.locator('.opblock-summary').click();
      await upload.locator('.try-out__btn').click();
      const files = upload.locator('[data-property-name="files[]"]');

      const execute = async () => {
        const answered = page.waitForResponse((r) => r.url() === `${own.baseUrl}/api/v1/documents/upload_files`);
        await upload.locator('.execute').click();
        const response = await answered;
        const sent = await response.request().allHeaders();
        return {
          status: response.status(),
          sent,
          ids: ((await response.json()).documents ?? []).map((d: { document_id: number }) => d.document_id) as number[],
        };
      };

      // First upload: a text PDF and a damaged one.
      await files.locator('input[type=file]').first().setInputFiles(fixturePath('text.pdf'));
      await files.locator('.json-schema-form-item-add').click();
      await files.locator('input[type=file]').nth(1).setInputFiles(fixturePath('corrupt.pdf'));
      const first = await execute();
      expect(first.status).toBe(202);
      expect(first.ids).toHaveLength(2);
      expect(first.sent).not.toHaveProperty('idempotency-key');

      // Second upload, other files, as a person changes the form: drop one, pick another.
      await files.locator('.json-schema-form-item-remove').nth(1).click();
      await files.locator('input[type=file]').first().setInputFiles(fixturePath('multipage.pdf'));
      const second = await execute();
      expect(second.status).toBe(202);
      expect(second.ids).toHaveLength(1);
      expect(second.ids.some((id) => first.ids.includes(id))).toBe(false);
      expect(second.sent).not.toHaveProperty('idempotency-key');

      // Once processing is over, choose "completed" in the list's filter.
      const all = async () =>
        (await (await fetch(`${own.baseUrl}/api/v1/documents/get_documents`, { headers: KEY })).json()).documents as Array<{
          document_id: number;
          status: string;
        }>;
      await expect.poll(async () => (await all()).filter((d) => d.status === 'processing').length, { timeout: 30_000 }).toBe(0);
      // text.pdf and multipage.pdf are read; corrupt.pdf fails, so the filter has something to leave out.
      expect((await all()).map((d) => d.status).sort()).toEqual(['completed', 'completed', 'failed']);
      const completed = (await all()).filter((d) => d.status === 'completed').map((d) => d.document_id);

      const list = page.locator('.opblock', { has: page.locator('[data-path="/api/v1/documents/get_documents"]') });
      await list.locator('.opblock-summary').click();
      await list.locator('.try-out__btn').click();
      await list.locator('[data-param-name="status_filter"] select').selectOption('completed');
      const listed = page.waitForResponse((r) => r.url().startsWith(`${own.baseUrl}/api/v1/documents/get_documents`));
      await list.locator('.execute').click();
      const response = await listed;
      expect(response.status()).toBe(200);
      expect(new URL(response.url()).search).toBe('?status_filter=completed');
      const shown = (await response.json()).documents as Array<{ document_id: number; status: string }>;
      expect(shown.map((d) => d.document_id).sort()).toEqual([...completed].sort());
    } finally {
      await page.close();
      await own.close();
    }
  }, 90_000);
});

describe('the mock controls in /docs (their own OpenAPI document, not the contract)', () => {
  it('is a valid OpenAPI document of exactly the controls the server has, and the server answers as it says', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docproc-controls-'));
    const file = join(dir, 'mock-controls.json');
    await writeFile(file, await (await fetch(`${server.baseUrl}/docs/mock-controls.json`)).text());
    const controls = await loadContract(file).finally(() => rm(dir, { recursive: true, force: true }));
    expect(controls.operations.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort()).toEqual([
      'GET /_mock/faults',
      'GET /_mock/requests',
      'GET /_mock/settings',
      'PATCH /_mock/faults',
      'PATCH /_mock/settings',
      'POST /_mock/documents/{document_id}/next-outcome',
      'POST /_mock/reset',
      'POST /_mock/seed',
    ]);
    const headers = { 'x-api-key': 'docproc-dev-key', 'content-type': 'application/json' };
    for (const [operationId, path, init] of [
      ['getFaults', '/_mock/faults', {}],
      ['changeFaults', '/_mock/faults', { method: 'PATCH', body: JSON.stringify({ latency_ms: 0, errors: { listDocuments: null } }) }],
      ['changeFaults', '/_mock/faults', { method: 'PATCH', body: JSON.stringify({ errors: { listDocuments: { rate: 3, status: 500 } } }) }],
      ['getSettings', '/_mock/settings', {}],
      [
        'seedDocuments',
        '/_mock/seed',
        { method: 'POST', body: JSON.stringify({ documents: [{ status: 'failed' }, { status: 'completed', content: 'x' }] }) },
      ],
      ['seedDocuments', '/_mock/seed', { method: 'POST', body: JSON.stringify({ documents: [] }) }],
      ['resetTenant', '/_mock/reset', { method: 'POST' }],
      ['listRecordedRequests', '/_mock/requests', {}],
      ['listRecordedRequests', '/_mock/requests?format=har', {}],
      ['listRecordedRequests', '/_mock/requests?status=6xx', {}],
    ] as const) {
      const res = await fetch(server.baseUrl + path, { headers, ...init });
      const media = Object.values(controls.response(operationId, res.status)!.content!)[0]!;
      expect(controls.validate(media.schema!, await res.json()).errors, `${operationId} ${res.status}`).toEqual([]);
    }
  });

  it('is selectable beside the contract, and "Try it out" reads this tenant\'s faults', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.baseUrl}/docs`);
      await page.waitForSelector('.opblock', { timeout: 20_000 });
      const select = page.locator('.topbar select');
      expect(await select.locator('option').allTextContents()).toEqual([
        'Document Processing Service',
        'Mock controls (not part of the contract)',
      ]);
      await select.selectOption({ label: 'Mock controls (not part of the contract)' });
      await page.waitForSelector('[data-path="/_mock/faults"]', { timeout: 20_000 });
      const faults = page.locator('.opblock-get', { has: page.locator('[data-path="/_mock/faults"]') });
      await faults.locator('.opblock-summary').click();
      await faults.locator('.try-out__btn').click();
      const answered = page.waitForResponse((r) => r.url() === `${server.baseUrl}/_mock/faults`);
      await faults.locator('.execute').click();
      const response = await answered;
      expect(response.status()).toBe(200);
      expect(await response.json()).toEqual({ latency_ms: 0, jitter_ms: 0, errors: {} });
    } finally {
      await page.close();
    }
  }, 60_000);

  it('is not offered where there are no controls (the stateless mock mounts the docs without them)', async () => {
    const app = express().use(referenceRoutes());
    const http = await listen(app, { port: 0, host: '127.0.0.1' });
    try {
      expect(await (await fetch(`${http.url}/docs/init.js`)).text()).not.toContain('mock-controls');
      expect((await fetch(`${http.url}/docs/mock-controls.json`)).status).toBe(404);
    } finally {
      await http.close();
    }
  });
});
