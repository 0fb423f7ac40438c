import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '@docproc-kit/test-support/chromium.js';
import getPort from 'get-port';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWorkingTree, removeAll, repoRoot, runOk } from './packing.js';
import { type TitledBlock, titledBlocks } from './readme-blocks.js';
import { VITE_REACT_TS_TEMPLATE } from './vite-template.js';

// The frontend team's path, as packages/msw/README.md writes it: a clone of this repository next to a new
// Vite + React + TypeScript app; the README's commands run as written (its `sh` blocks titled "in the clone",
// but for its `npm ci`, and "in my-app"), its files written as they are (the blocks titled with a path); then the app is type-checked
// and built as `npm run build` does, and driven in Chromium on the dev server and as built.
const README = join(repoRoot, 'packages/msw/README.md');
const OURS = ['contract', 'reference', 'msw', 'client'];
// A string of each part that must stay out of a production build, each shown present when it is not gated.
const MARKERS = { '@docproc-kit/msw': 'the docproc mock needs baseUrl', msw: '[MSW]', 'pdf.js': 'Invalid PDF structure' };
const TEXT_PDF = join(repoRoot, 'packages/contract/fixtures/text.pdf');
// This file runs with vitest's NODE_ENV=test, which Vite would take for a development build; a team's shell has none.
const SHELL_ENV = { NODE_ENV: undefined, NODE_OPTIONS: undefined };
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

let root: string | undefined;
let app: string;
let blocks: TitledBlock[];
let browser: Browser | undefined;
const servers: ChildProcess[] = [];

/** Runs a README `sh` block with bash, line by line as a shell would, stopping at the first failure. */
function runBlock(block: TitledBlock, cwd: string, timeoutMs: number) {
  return runOk('bash', ['-euo', 'pipefail', '-c', block.code], { cwd, timeoutMs, env: SHELL_ENV });
}

/** Starts `vite` (or `vite preview`) of the app on a free port, as `npm run dev`/`preview` do, and resolves once it answers. */
async function startVite(args: string[]): Promise<string> {
  const port = await getPort({ host: '127.0.0.1' });
  const child = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', ...args, '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    {
      cwd: app,
      env: { ...process.env, ...SHELL_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  servers.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const url = `http://127.0.0.1:${port}/`;
  const answers = () =>
    fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    );
  for (const deadline = Date.now() + 60_000; !(await answers()); await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (child.exitCode !== null) throw new Error(`vite ${args.join(' ')} exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`vite ${args.join(' ')} did not answer in 60 s:\n${output}`);
  }
  return url;
}

/** The built JavaScript of the app: each file's name, size (and gzipped, zlib's default level), and which markers it holds. */
async function builtScripts(outDir: string) {
  const assets = join(app, outDir, 'assets');
  const scripts = (await readdir(assets)).filter((f) => f.endsWith('.js'));
  return Promise.all(
    scripts.map(async (name) => {
      const text = await readFile(join(assets, name), 'utf8');
      const holds = Object.entries(MARKERS).flatMap(([part, marker]) => (text.includes(marker) ? [part] : []));
      return { name, bytes: (await stat(join(assets, name))).size, gzipped: gzipSync(text).length, holds };
    }),
  );
}

/** A new tab (its own context: no service worker of another tab) that records the page's uncaught errors. */
async function openTab(): Promise<{ tab: Page; errors: string[] }> {
  const tab = await (await browser!.newContext()).newPage();
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(String(error)));
  return { tab, errors };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'docproc-vite-'));
  blocks = await titledBlocks(README);
  const clone = join(root, 'docproc-kit');
  app = join(root, 'my-app');

  // The app as `npm create vite@latest my-app -- --template react-ts` and its `npm install` leave it.
  for (const [file, text] of Object.entries(VITE_REACT_TS_TEMPLATE)) {
    await mkdir(dirname(join(app, file)), { recursive: true });
    await writeFile(join(app, file), text);
  }
  await runOk('npm', ['install', '--no-audit', '--no-fund'], { cwd: app, timeoutMs: 600_000, env: SHELL_ENV });

  // The clone: this working tree with the repository's node_modules linked in and the packages' dist/ as the
  // global setup has just built them, which is what its `npm ci` (install, then build every package) makes.
  await copyWorkingTree(clone);
  for (const name of OURS) await cp(join(repoRoot, 'packages', name, 'dist'), join(clone, 'packages', name, 'dist'), { recursive: true });
  await cp(join(repoRoot, 'packages/msw/fixtures'), join(clone, 'packages/msw/fixtures'), { recursive: true });
  const [cloneBlock] = blocks.filter((b) => b.title === 'in the clone');
  expect(cloneBlock!.code.split('\n')[0]).toBe('npm ci');
  await runBlock({ ...cloneBlock!, code: cloneBlock!.code.split('\n').slice(1).join('\n') }, clone, 300_000);

  // The README, from the install on: its commands, then its files.
  for (const block of blocks.filter((b) => b.title === 'in my-app')) await runBlock(block, app, 600_000);
  for (const block of blocks.filter((b) => b.title.startsWith('src/'))) {
    await mkdir(dirname(join(app, block.title)), { recursive: true });
    await writeFile(join(app, block.title), block.code);
  }
  browser = await launchChromium();
}, 1_500_000);

afterAll(async () => {
  await browser?.close();
  for (const child of servers) if (child.exitCode === null) child.kill('SIGTERM');
  await removeAll([root]);
});

describe('a fresh Vite + React + TypeScript app that follows packages/msw/README.md', () => {
  it('is made of the README: its install, its worker and every file it shows, each import of ours from @docproc-kit/*', async () => {
    expect(blocks.map((b) => b.title)).toEqual([
      'in the clone',
      'in my-app',
      'in my-app',
      'src/docproc.ts',
      'src/mocks.ts',
      'src/main.tsx',
      'src/App.tsx',
    ]);
    const imported = blocks.flatMap((b) => [...b.code.matchAll(/from '([^.'][^']*)'/g)].map(([, from]) => from!));
    expect(imported.filter((from) => from.includes('docproc'))).toEqual(['@docproc-kit/client', '@docproc-kit/msw', '@docproc-kit/client']);
    const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).toContain('@docproc-kit/client');
    expect(Object.keys(manifest.devDependencies)).toEqual(expect.arrayContaining(['@docproc-kit/msw', 'msw']));
    expect(manifest.msw).toEqual({ workerDirectory: ['public'] });
  });

  it('type-checks and builds with `npm run build`, and no built file carries msw, the kit or pdf.js', async () => {
    const build = await runOk('npm', ['run', 'build'], { cwd: app, timeoutMs: 240_000, env: SHELL_ENV });
    expect(build.stdout + build.stderr).not.toMatch(/larger than 500 kB/);
    const scripts = await builtScripts('dist');
    console.log(`gated production build: ${scripts.map((s) => `${s.name} ${kB(s.bytes)} (gzipped ${kB(s.gzipped)})`).join(', ')}`);
    expect(scripts.filter((s) => s.holds.length > 0)).toEqual([]);
    // msw's worker script is copied from public/ like any static file; nothing in the build registers it.
    console.log(`and dist/mockServiceWorker.js ${kB((await stat(join(app, 'dist/mockServiceWorker.js'))).size)}`);
  }, 300_000);

  it('would carry all three without the import.meta.env.DEV line, so their absence above means something', async () => {
    const main = blocks.find((b) => b.title === 'src/main.tsx')!.code;
    const gate = '  if (!import.meta.env.DEV) return;\n';
    expect(main).toContain(gate);
    await writeFile(join(app, 'src/main.tsx'), main.replace(gate, ''));
    try {
      const build = await runOk('node', ['node_modules/vite/bin/vite.js', 'build', '--outDir', 'dist-ungated'], {
        cwd: app,
        timeoutMs: 240_000,
        env: SHELL_ENV,
      });
      expect(build.stdout + build.stderr).toMatch(/larger than 500 kB/);
    } finally {
      await writeFile(join(app, 'src/main.tsx'), main);
    }
    const scripts = await builtScripts('dist-ungated');
    const sizes = scripts.map(
      (s) => `${s.name} ${kB(s.bytes)} (gzipped ${kB(s.gzipped)})${s.holds.length ? `: ${s.holds.join(', ')}` : ''}`,
    );
    console.log(`ungated production build: ${sizes.join(', ')}`);
    expect([...new Set(scripts.flatMap((s) => s.holds))].sort()).toEqual(['@docproc-kit/msw', 'msw', 'pdf.js']);
  }, 300_000);

  it('on `npm run dev` in Chromium: lists the seeded documents, takes text.pdf through the page to completed, finds it by a word of its text', async () => {
    const { tab, errors } = await openTab();
    await tab.goto(await startVite([]));
    const items = () => tab.locator('li').allTextContents();
    await expect.poll(items, { timeout: 60_000 }).toHaveLength(4);
    expect(await items()).toEqual(expect.arrayContaining(['report-1.pdf: completed', 'scan.png: failed']));
    await tab.getByLabel('Upload documents').setInputFiles(TEXT_PDF);
    await tab.getByText('text.pdf: completed').waitFor({ timeout: 60_000 });
    await tab.getByLabel('Search').fill('pelican');
    await expect.poll(items, { timeout: 20_000 }).toEqual(['text.pdf: completed']);
    expect(errors).toEqual([]);
  }, 180_000);

  it('as built, served by `vite preview` in Chromium: registers no service worker, and its calls to the service leave the page', async () => {
    const { tab } = await openTab();
    const listed = tab.waitForResponse((r) => r.url().endsWith('/api/v1/documents/get_documents'), { timeout: 30_000 });
    await tab.goto(await startVite(['preview']));
    // No service stands behind `vite preview`: its fallback, the app's index.html, answers the call, not a mock.
    const answer = await listed;
    expect([answer.fromServiceWorker(), answer.headers()['content-type']]).toEqual([false, expect.stringContaining('text/html')]);
    await tab.getByLabel('Upload documents').waitFor({ timeout: 30_000 });
    expect(await tab.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0);
  }, 120_000);
});
