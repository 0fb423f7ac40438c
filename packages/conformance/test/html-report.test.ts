import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '@docproc-kit/test-support/chromium.js';
import { startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { docprocArgs } from '@docproc-kit/test-support/processes.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { failedChecks, fullProfileArgs, runSuite, type SuiteRun } from '@docproc-kit/test-support/run-suite.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractMutants } from '../proofs/mutants-contract.js';

// The page a person opens after a run, opened as they would: from file://, in the system's Chromium. Two
// runs of the list area (--only list): one against the reference server (passing, the other areas' checks
// not exercised) and one against it with list pages that drop their last document (failing), each writing
// its page with DOCPROC_HTML; every assertion reads those two. A whole run's page: full-profile.test.ts.
const KEYS = ['html-report-key', 'html-report-second-key'];
const MAX_FILE_BYTES = 65_536;
const out = mkdtempSync(join(tmpdir(), 'conformance-html-report-'));
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let server: RunningReferenceServer;
let browser: Browser;
const runs: Record<'passing' | 'failing', { run: SuiteRun; page: string; json: string }> = {} as never;

async function runWithPage(name: 'passing' | 'failing', baseUrl: string): Promise<void> {
  const page = join(out, `${name}.html`);
  const args = [...fullProfileArgs(baseUrl, { keys: KEYS, maxFileBytes: MAX_FILE_BYTES, requestTimeoutMs: 20_000 }), '--only', 'list'];
  const run = await runSuite(args, { env: { DOCPROC_HTML: page }, timeoutMs: 120_000 });
  if (!run.report) throw new Error(`the ${name} run wrote no report:\n${run.output}`);
  const json = join(out, `${name}.json`);
  writeFileSync(json, JSON.stringify(run.report));
  runs[name] = { run, page, json };
}

beforeAll(async () => {
  console.log(`html-report.test: pages, reports and screenshots in ${out}`);
  server = await startReferenceServer({ apiKeys: KEYS, maxFiles: 20, maxFileBytes: MAX_FILE_BYTES, processingDelayMs: 200 });
  await runWithPage('passing', server.baseUrl);
  const mutant = contractMutants.find((m) => m.name === 'list-drops-a-document')!;
  const broken = await startMutationProxy(server.baseUrl, mutant.mutation({ primary: KEYS[0]!, secondary: KEYS[1]! }));
  try {
    await runWithPage('failing', broken.baseUrl);
  } finally {
    await broken.close();
  }
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a page from file:// with every request but its own recorded (and refused), and every console error kept. */
async function open(file: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  const requests: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
  page.on('request', (r) => r.url() !== url && requests.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, context, requests, errors };
}

describe.each(['passing', 'failing'] as const)('the HTML page of a %s run', (name) => {
  it('opens from file:// with no console error and no request leaving the page; no key is in it', async () => {
    const { run, page: file } = runs[name];
    expect(run.code, run.output).toBe(name === 'passing' ? 0 : 1);
    const { page, context, requests, errors } = await open(file);
    try {
      await expect.poll(() => page.locator('#verdict').getAttribute('data-result')).toBe(run.report!.result);
      await page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      const text = readFileSync(file, 'utf8');
      for (const key of KEYS) expect(text).not.toContain(key);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('shows every failure of the JSON under its check, with its curl line', async () => {
    const report = runs[name].run.report!;
    const { page, context } = await open(runs[name].page);
    try {
      for (const check of report.checks.filter((c) => c.failures.length > 0)) {
        const shown = await page.$$eval(`article.failure[data-check="${check.id}"]`, (nodes) =>
          nodes.map((n) => n.querySelector('pre.curl')?.textContent ?? null),
        );
        expect(shown, check.id).toEqual(check.failures.map((f) => f.curl ?? null));
      }
      const articles = await page.locator('article.failure').count();
      expect(articles).toBe(report.checks.reduce((sum, c) => sum + c.failures.length, 0));
      if (name === 'failing') expect(articles).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("shows the operation × status matrix with the JSON's counts", async () => {
    const report = runs[name].run.report!;
    const { page, context } = await open(runs[name].page);
    try {
      const cells = await page.$$eval('#matrix td[data-op]', (nodes) =>
        nodes.map((n) => [`${n.getAttribute('data-op')} ${n.getAttribute('data-status')}`, Number(n.getAttribute('data-count'))] as const),
      );
      const expected = Object.entries(report.statuses).flatMap(([op, e]) =>
        [...new Set([...e.documented, ...Object.keys(e.observed)])].map((s) => [`${op} ${s}`, e.observed[s] ?? 0] as const),
      );
      expect(Object.fromEntries(cells)).toEqual(Object.fromEntries(expected));
      const never = await page.$$eval('#matrix td.c-never', (nodes) =>
        nodes.map((n) => `${n.getAttribute('data-op')} ${n.getAttribute('data-status')}`),
      );
      expect(never.sort()).toEqual(
        Object.entries(report.statuses)
          .flatMap(([op, e]) => e.neverObserved.map((s) => `${op} ${s}`))
          .sort(),
      );
    } finally {
      await context.close();
    }
  }, 60_000);

  it('has no serious or critical accessibility violation (axe-core), on a desktop and on a phone', async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const { page, context } = await open(runs[name].page, viewport);
      try {
        await page.addScriptTag({ content: axeSource });
        const violations = await page.evaluate(async () => {
          const result = await (
            window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }
          ).axe.run();
          return result.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id} (${v.nodes.length})`);
        });
        expect(violations, `${viewport.width}px`).toEqual([]);
        if (viewport.width < 500) await page.screenshot({ path: join(out, `${name}-phone.png`), fullPage: false });
      } finally {
        await context.close();
      }
    }
  }, 90_000);
});

describe('docproc conformance diff', () => {
  it('of the passing and the failing run names exactly the checks the failing run failed, and exits 0; the other way round they are fixed', () => {
    const { passing, failing } = runs;
    const html = join(out, 'diff.html');
    const result = spawnSync(process.execPath, docprocArgs(['conformance', 'diff', passing.json, failing.json, '--html', html]), {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
    });
    expect(result.status, result.stderr).toBe(0);
    const section = (title: string, text: string) => text.split(`   ${title}`)[1]!.split(/\n {3}\S/)[0]!;
    const named = (text: string) => [...text.matchAll(/^ {4}[✗✓] ([\w.-]+) /gm)].map((m) => m[1]).sort();
    expect(named(section('Newly failing', result.stdout))).toEqual(failedChecks(failing.run));
    expect(readFileSync(html, 'utf8')).toContain('id="newly-failing-table"');
    const back = spawnSync(process.execPath, docprocArgs(['conformance', 'diff', failing.json, passing.json]), {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(back.status, back.stderr).toBe(0);
    expect(named(section('Fixed', back.stdout))).toEqual(failedChecks(failing.run));
  }, 120_000);

  it('refuses a file that is not a report, as a usage error', () => {
    const bogus = join(out, 'not-a-report.json');
    writeFileSync(bogus, '{"hello":1}');
    const result = spawnSync(process.execPath, docprocArgs(['conformance', 'diff', bogus, runs.passing.json]), {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is not a conformance report');
  }, 60_000);
});
