import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noisyDocuments } from '@docproc-kit/conformance/proofs/mutant-behaviours.js';
import { startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskBytes, installedPackages, type PackedTarball, packWorkspaces, removeAll, repoRoot, run } from './packing.js';

// A backend team's CI: @docproc-kit/conformance packed (with @docproc-kit/contract and @docproc-kit/reference,
// its dependencies of ours, which are not on the registry either: the reference core is the oracle its
// differential run judges by), installed alone in a fresh folder, and run with npx against the reference server
// and against a broken one.
const LIMITS = { bytes: 25 * 1024 * 1024, packages: 40 };
// What a CI package must never pull in: a mock server, OCR, canvas, Prism, a database client, a browser, a PDF
// library or a test runner (which could collide with the project's own).
const FORBIDDEN =
  /^(vitest|jest|mocha|@vitest\/.*|msw|pdf-lib|pdfjs-dist|unpdf|tesseract\.js.*|@napi-rs\/canvas.*|@stoplight\/prism-.*|pg|pg-boss|playwright.*|puppeteer.*|express|docproc-kit|@docproc-kit\/msw)$/;
const KEYS = ['ci-key', 'ci-second-key'];

let packs: string | undefined;
let app: string | undefined;
let tarballs: PackedTarball[];
let server: RunningReferenceServer;
beforeAll(async () => {
  packs = await mkdtemp(join(tmpdir(), 'docproc-packs-'));
  tarballs = await packWorkspaces(['@docproc-kit/contract', '@docproc-kit/reference', '@docproc-kit/conformance'], packs, 120_000);
  app = await mkdtemp(join(tmpdir(), 'docproc-conformance-app-'));
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'backend-ci', version: '1.0.0', private: true }, null, 2));
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs.map((t) => t.tarball)], {
    cwd: app,
    timeoutMs: 300_000,
  });
  if (installed.code !== 0) throw new Error(`npm install exited ${installed.code}:\n${installed.stdout}\n${installed.stderr}`);
  server = await startReferenceServer({ apiKeys: KEYS, processingDelayMs: 200 });
}, 480_000);
afterAll(async () => {
  await server?.close();
  await removeAll([packs, app]);
}, 60_000);

/** `npx docproc-conformance <args>` in the app, its reports in a fresh folder of the app. */
async function conformance(args: string[]) {
  const result = await run('npx', ['docproc-conformance', ...args, '--report', 'reports/conformance.json'], {
    cwd: app!,
    timeoutMs: 240_000,
    env: { TMPDIR: app! },
  });
  const report = JSON.parse(await readFile(join(app!, 'reports', 'conformance.json'), 'utf8').catch(() => '{}')) as { result?: string };
  await rm(join(app!, 'reports'), { recursive: true, force: true });
  return { ...result, output: result.stdout + result.stderr, report };
}

describe('@docproc-kit/conformance packed and installed alone in a fresh folder', () => {
  it(`takes at most ${LIMITS.packages} packages and 25 MB, none of them a server, OCR, canvas, database client, browser, PDF library or test runner`, async () => {
    const packages = await installedPackages(app!);
    const bytes = await diskBytes(join(app!, 'node_modules'));
    console.log(`installed: ${packages.length} packages, ${(bytes / 1e6).toFixed(1)} MB (${bytes} bytes): ${packages.join(', ')}`);
    expect(packages.length).toBeLessThanOrEqual(LIMITS.packages);
    expect(bytes).toBeLessThanOrEqual(LIMITS.bytes);
    expect(packages.filter((name) => FORBIDDEN.test(name))).toEqual([]);
  });

  it('ships compiled code only: no TypeScript sources, tests, proofs or scripts', () => {
    const files = tarballs.find((t) => t.tarball.includes('conformance'))!.files;
    expect(files).toEqual(
      expect.arrayContaining(['bin/docproc-conformance.js', 'dist/cli.js', 'dist/scenarios/model.suite.js', 'README.md']),
    );
    expect(files.filter((f) => /\.test\.|(?<!\.d)\.ts$|^(proofs|scripts|test|src)\//.test(f))).toEqual([]);
  });

  it('passes the full profile against the reference server: npx docproc-conformance exits 0', async () => {
    const run = await conformance(['--base-url', server.baseUrl, '--api-key', KEYS[0]!, '--second-api-key', KEYS[1]!, '--profile', 'full']);
    expect(run.code, run.output).toBe(0);
    expect(run.report.result, run.output).toBe('passed');
  }, 300_000);

  it('fails against a broken server (its documents carry an undocumented property and timestamps without a zone): exit 1', async () => {
    const proxy = await startMutationProxy(server.baseUrl, { response: noisyDocuments });
    try {
      const run = await conformance(['--base-url', proxy.baseUrl, '--api-key', KEYS[0]!, '--second-api-key', KEYS[1]!, '--strict']);
      expect(run.code, run.output).toBe(1);
      expect(run.report.result, run.output).toBe('failed');
    } finally {
      await proxy.close();
    }
  }, 300_000);
});

/**
 * The shell steps of the README's CI blocks: GitHub Actions' `run:` lines and the items of GitLab CI's
 * `script:`, from the yaml blocks of its "CI for a backend team" section.
 */
function ciShellSteps(readme: string): Array<{ ci: string; command: string }> {
  const section = readme.slice(readme.indexOf('## CI for a backend team'));
  const end = section.indexOf('\n## ', 3);
  const blocks = [...(end === -1 ? section : section.slice(0, end)).matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((block) => {
    const ci = block.includes('script:') ? 'GitLab CI' : 'GitHub Actions';
    const lines = block.split('\n');
    const steps: string[] = [];
    for (const [i, line] of lines.entries()) {
      const runLine = /^\s*-\s+run:\s+(.+)$/.exec(line);
      if (runLine) steps.push(runLine[1]!);
      if (/^\s*script:\s*$/.test(line)) {
        const indent = line.search(/\S/);
        for (const item of lines.slice(i + 1)) {
          if (item.search(/\S/) <= indent) break;
          const step = /^\s*-\s+(.+)$/.exec(item);
          if (step) steps.push(step[1]!);
        }
      }
    }
    return steps.map((command) => ({ ci, command }));
  });
}

const steps = ciShellSteps(await readFile(join(repoRoot, 'packages', 'conformance', 'README.md'), 'utf8'));

describe("the README's CI recipe for a backend team", () => {
  it('has one shell step for GitHub Actions and one for GitLab CI, each the suite with a JUnit report', () => {
    expect(steps.map((s) => s.ci)).toEqual(['GitHub Actions', 'GitLab CI']);
    for (const { command } of steps) expect(command).toMatch(/^npx @docproc-kit\/conformance .*--junit report\.xml$/);
  });

  it.each(steps)(
    'runs the $ci step as written with bash against the reference server: exit 0, report.xml written without failures',
    async ({ command }) => {
      const env = { TMPDIR: app!, STAGING_URL: server.baseUrl, DOCPROC_API_KEY: KEYS[0]! };
      const result = await run('bash', ['-c', command], { cwd: app!, timeoutMs: 240_000, env });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const junit = await readFile(join(app!, 'report.xml'), 'utf8');
      await rm(join(app!, 'report.xml'), { force: true });
      expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
    },
    300_000,
  );
});
