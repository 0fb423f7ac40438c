import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDocprocClient } from '@docproc-kit/client';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { createDocprocFetch } from '@docproc-kit/msw/fetch';
import { launchChromium } from '@docproc-kit/test-support/chromium.js';
import { docprocArgs } from '@docproc-kit/test-support/processes.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { seedViews } from '@docproc-kit/test-support/seed-views.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docproc seed from-har` on a HAR Chromium wrote while a person used the reference server's /docs page
// (Swagger UI's "Try it out"): the seed it makes answers as the server did.
const KEY = 'docproc-dev-key';
const root = fileURLToPath(new URL('../../../../', import.meta.url));
let server: RunningReferenceServer;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startReferenceServer({ processingDelayMs: 20 }), launchChromium()]);
  dir = await mkdtemp(join(tmpdir(), 'docproc-from-har-'));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const fromHar = (args: string[]) =>
  spawnSync(process.execPath, docprocArgs(['seed', 'from-har', ...args]), { cwd: root, encoding: 'utf8' });
const client = (baseUrl: string, fetch?: typeof globalThis.fetch) =>
  createDocprocClient({ baseUrl, apiKey: KEY, ...(fetch ? { fetch } : {}) });

/** Opens one operation's "Try it out" on the /docs page. */
async function tryOut(page: Page, path: string) {
  const block = page.locator('.opblock', { has: page.locator(`[data-path="${path}"]`) });
  await block.locator('.opblock-summary').click();
  await block.locator('.try-out__btn').click();
  return block;
}

async function execute(page: Page, block: ReturnType<Page['locator']>, path: string) {
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith(`/api/v1/documents/${path}`));
  await block.locator('.execute').click();
  return answered;
}

describe('docproc seed from-har', () => {
  it('turns a HAR of Chromium using the /docs page into a seed whose lists, searches and reads answer as the server did', async () => {
    const har = join(dir, 'docs-page.har');
    const context = await browser.newContext({ recordHar: { path: har, content: 'embed' } });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });

    const upload = await tryOut(page, '/api/v1/documents/upload_files');
    const files = upload.locator('[data-property-name="files[]"]');
    await files.locator('input[type=file]').first().setInputFiles(fixturePath('text.pdf'));
    await files.locator('.json-schema-form-item-add').click();
    await files.locator('input[type=file]').nth(1).setInputFiles(fixturePath('corrupt.pdf'));
    await files.locator('.json-schema-form-item-add').click();
    await files.locator('input[type=file]').nth(2).setInputFiles(fixturePath('multipage.pdf'));
    expect((await execute(page, upload, 'upload_files')).status()).toBe(202);
    const direct = client(server.baseUrl);
    await expect
      .poll(async () => (await direct.listDocuments({ status_filter: 'processing' })).data?.pagination.total, { timeout: 30_000 })
      .toBe(0);

    const list = await tryOut(page, '/api/v1/documents/get_documents');
    expect((await execute(page, list, 'get_documents')).status()).toBe(200);
    const read = await tryOut(page, '/api/v1/documents/get_document/{document_id}');
    for (const id of [1, 2, 3]) {
      await read.locator('[data-param-name="document_id"] input').fill(String(id));
      expect((await execute(page, read, `get_document/${id}`)).status()).toBe(200);
    }
    await context.close();
    expect(await readFile(har, 'utf8')).toContain(KEY);

    const out = join(dir, 'from-har.json');
    const made = fromHar([har, '--out', out]);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stderr).toMatch(/3 documents from 5 answers; written to /);
    const seedText = await readFile(out, 'utf8');
    expect(seedText).not.toContain(KEY);
    const seed = JSON.parse(seedText);
    expect(seed.documents.map((d: { filename: string; status: string }) => [d.filename, d.status])).toEqual([
      ['text.pdf', 'completed'],
      ['corrupt.pdf', 'failed'],
      ['multipage.pdf', 'completed'],
    ]);
    const mock = createDocprocFetch({ baseUrl: 'http://docproc.test', processingDelayMs: 0, seed });
    try {
      expect(await seedViews(client('http://docproc.test', mock))).toEqual(await seedViews(direct));
    } finally {
      await mock.close();
    }
  }, 120_000);

  it('writes the seed to standard output, and says the sandbox journal HAR holds no bodies to record', async () => {
    const journal = join(dir, 'journal.har');
    const answer = await fetch(`${server.baseUrl}/_mock/requests?format=har`, { headers: { 'x-api-key': KEY } });
    await writeFile(journal, await answer.text());
    const made = fromHar([journal]);
    expect(made.status, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toEqual([]);
    expect(made.stderr).toMatch(/0 documents from 0 answers; \d+ answers? not recorded \(body-not-in-har \d+\)/);
  }, 60_000);

  it.each([
    { name: 'a file that is not JSON', text: 'not json', message: /cannot read .*bad\.har/ },
    { name: 'JSON that is not a HAR', text: '{"entries": []}', message: /not a HAR: it has no log\.entries/ },
  ])(
    'refuses $name with exit 2 and a message naming it',
    async ({ text, message }) => {
      const bad = join(dir, 'bad.har');
      await writeFile(bad, text);
      const made = fromHar([bad]);
      expect(made.status).toBe(2);
      expect(made.stderr).toMatch(message);
    },
    60_000,
  );
});
