import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { checksNotPassed, fullProfileArgs, runSuite } from '@docproc-kit/test-support/run-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWorkingTree, diskBytes, installedPackages, npmPack, removeAll, repoRoot, runOk, scratchProject } from './packing.js';

// @docproc-kit/msw as a frontend team gets it: packed from a copy of this working tree with the workspace
// packages it needs (contract, reference) and the typed client, installed into a fresh vitest app next to
// msw, vitest, jsdom and happy-dom, then used there by a test file under each environment.
const OURS = ['@docproc-kit/contract', '@docproc-kit/reference', '@docproc-kit/client', '@docproc-kit/msw'];
const THEIRS = ['msw', 'vitest', 'jsdom', 'happy-dom'];
const MB = 1024 * 1024;
let clone: string | undefined;
let packs: string | undefined;
let app: string | undefined;
let before: { packages: string[]; bytes: number };
let after: { packages: string[]; bytes: number };

beforeAll(async () => {
  clone = await copyWorkingTree();
  // The clone's packages build against each other, not against this checkout's (its node_modules is linked in).
  for (const [from, deps] of [
    ['reference', ['contract']],
    ['msw', ['contract', 'reference', 'client']],
  ] as const) {
    await mkdir(join(clone, 'packages', from, 'node_modules', '@docproc-kit'), { recursive: true });
    for (const dep of deps)
      await symlink(join(clone, 'packages', dep), join(clone, 'packages', from, 'node_modules', '@docproc-kit', dep), 'dir');
  }
  await runOk('npm', ['run', '-s', 'build', ...OURS.flatMap((w) => ['-w', w])], { cwd: clone, timeoutMs: 600_000 });
  packs = await mkdtemp(join(tmpdir(), 'docproc-packs-'));
  const tarballs: string[] = [];
  for (const workspace of OURS) tarballs.push((await npmPack(clone, ['-w', workspace], packs, 180_000)).tarball);
  app = await scratchProject({ type: 'module', scripts: { test: 'vitest run' } }, THEIRS, 600_000);
  before = { packages: await installedPackages(app), bytes: await diskBytes(join(app, 'node_modules')) };
  await runOk('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], { cwd: app, timeoutMs: 600_000 });
  after = { packages: await installedPackages(app), bytes: await diskBytes(join(app, 'node_modules')) };
}, 1_500_000);
// Deleting a clone and an installed app takes tens of seconds on a busy machine.
afterAll(() => removeAll([clone, packs, app]), 120_000);

// The test file a team writes: the fixture by its exported path, the typed client against the handlers.
const scenario = `
import { readFile } from 'node:fs/promises';
import { createDocprocClient } from '@docproc-kit/client';
import { createDocprocHandlers } from '@docproc-kit/msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';

export function uploadsAndFinds(environment) {
  const docproc = createDocprocHandlers({ baseUrl: 'http://docproc.test', processingDelayMs: 0 });
  const server = setupServer(...docproc);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(async () => {
    server.close();
    await docproc.close();
  });
  it('uploads text.pdf through the typed client under ' + environment + ', waits for it and finds it', async () => {
    const pdf = await readFile(new URL(import.meta.resolve('@docproc-kit/msw/fixtures/text.pdf')));
    const client = createDocprocClient({ baseUrl: 'http://docproc.test', apiKey: 'docproc-dev-key' });
    const upload = await client.uploadDocuments([new File([pdf], 'invoice.pdf', { type: 'application/pdf' })]);
    expect(upload.error).toBeUndefined();
    const id = upload.data.documents[0].document_id;
    expect((await client.waitForDocument(id, { timeoutMs: 20000 })).data.status).toBe('completed');
    const found = await client.listDocuments({ search: 'pelican' });
    expect(found.data.documents.map((d) => d.filename)).toEqual(['invoice.pdf']);
  });
}
`;

// The fetch mock of the installed package on a port: prints the port's base URL, then serves until killed.
const host = (keys: string[], maxFileBytes: number) => `
import { createDocprocFetch } from '@docproc-kit/msw/fetch';
const { bridgeFetch } = await import(process.env.BRIDGE);
const baseUrl = 'http://docproc.fetch.test';
const mock = createDocprocFetch({ apiKeys: ${JSON.stringify(keys)}, baseUrl, processingDelayMs: 200, maxFileBytes: ${maxFileBytes} });
const bridge = await bridgeFetch(mock, baseUrl);
process.once('SIGTERM', () => bridge.close().then(() => mock.close()).then(() => process.exit(0)));
console.log(bridge.baseUrl);
`;

describe('@docproc-kit/msw packed and installed in a fresh vitest app', () => {
  it('adds at most 10 MB and 15 packages beyond msw, vitest, jsdom and happy-dom, none native, no test runner', () => {
    const added = after.packages.filter((p) => !before.packages.includes(p));
    const addedMb = (after.bytes - before.bytes) / MB;
    console.log(`@docproc-kit/msw adds ${added.length} packages, ${addedMb.toFixed(2)} MB: ${added.join(', ')}`);
    expect(added.length).toBeLessThanOrEqual(15);
    expect(addedMb).toBeLessThanOrEqual(10);
    expect(added.filter((p) => /^(@napi-rs\/|canvas$|vitest$|jest$|mocha$|pino$|file-type$)/.test(p))).toEqual([]);
    expect(after.packages.filter((p) => p === 'vitest')).toEqual(['vitest']);
  });

  it("exports the fixtures: import.meta.resolve('@docproc-kit/msw/fixtures/text.pdf') finds a PDF", async () => {
    const { stdout } = await runOk(
      'node',
      ['--input-type=module', '-e', "console.log(import.meta.resolve('@docproc-kit/msw/fixtures/text.pdf'))"],
      { cwd: app!, timeoutMs: 30_000 },
    );
    expect(stdout.trim()).toBe(pathToFileURL(join(app!, 'node_modules/@docproc-kit/msw/fixtures/text.pdf')).href);
  });

  it("passes a test file that uploads, waits and searches under vitest's node, jsdom and happy-dom environments", async () => {
    await writeFile(join(app!, 'scenario.js'), scenario);
    for (const environment of ['node', 'jsdom', 'happy-dom'])
      await writeFile(
        join(app!, `upload.${environment}.test.js`),
        `// @vitest-environment ${environment}\nimport { uploadsAndFinds } from './scenario.js';\nuploadsAndFinds('${environment}');\n`,
      );
    const { stdout } = await runOk('npx', ['vitest', 'run'], { cwd: app!, timeoutMs: 240_000, env: { CI: '1', NO_COLOR: '1' } });
    expect(stripVTControlCharacters(stdout)).toMatch(/Test Files\s+3 passed \(3\)/);
  }, 300_000);

  it('passes the full conformance profile as createDocprocFetch of the installed package', async () => {
    const KEYS = ['fetch-key', 'fetch-second-key'];
    const MAX_FILE_BYTES = 65_536;
    await writeFile(join(app!, 'host.mjs'), host(KEYS, MAX_FILE_BYTES));
    // Its own Node process in the app, so the installed package resolves as the app's would (not through
    // this repository's source condition), bridged to a port with test/support/fetch-bridge.ts.
    const { NODE_OPTIONS: _, ...env } = process.env;
    const tsx = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/esm/index.mjs')).href;
    const child = spawn(process.execPath, ['--import', tsx, 'host.mjs'], {
      cwd: app!,
      env: { ...env, BRIDGE: pathToFileURL(join(repoRoot, 'test/support/fetch-bridge.ts')).href },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      // The host prints its URL once the package is loaded: seconds; a host that died never prints it.
      const [line] = (await once(child.stdout!, 'data', { signal: AbortSignal.timeout(60_000) })) as [Buffer];
      const baseUrl = line.toString().trim();
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const run = await runSuite(fullProfileArgs(baseUrl, { keys: KEYS, maxFileBytes: MAX_FILE_BYTES, requestTimeoutMs: 20_000 }), {
        timeoutMs: 400_000,
      });
      // The in-process mock has no OCR (its README says so): a legible scan completes with no text, which the
      // contract says only of a file with none; every other check passes.
      expect(run.code, run.output).toBe(1);
      expect(checksNotPassed(run), run.output).toEqual([expect.stringMatching(/^lifecycle\.scan-read-by-ocr: failed/)]);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  }, 480_000);
});
