import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PackedTarball, packWorkspaces, removeAll, repoRoot, run, runOk, scratchProject, WORKSPACES } from './packing.js';

// The kit as the README's "Conformance in CI" section has a team use it before it is on the registry:
// packed from this checkout with the workspace packages it depends on (none is on the registry), the
// tarballs kept in the team's repository under ci/, installed in CI with `npm install --no-save`, and run
// with `npx docproc`. The slowest test of the repository: installing the kit's ~390 packages, from the npm
// cache when they are there.
let packs: string | undefined;
let ciRepo: string | undefined;
let tarballs: PackedTarball[];
let packed: PackedTarball;
let server: ChildProcess | undefined;
beforeAll(async () => {
  packs = await mkdtemp(join(tmpdir(), 'docproc-packs-'));
  tarballs = await packWorkspaces(WORKSPACES, packs, 120_000);
  packed = tarballs.find((t) => basename(t.tarball).startsWith('docproc-kit-0'))!;
  // A backend team's repository: no package.json, the tarballs committed under ci/.
  ciRepo = await mkdtemp(join(tmpdir(), 'docproc-ci-'));
  await mkdir(join(ciRepo, 'ci'));
  await mkdir(join(ciRepo, 'tmp')); // the suite keeps request bodies under $TMPDIR: here, removed with the rest
  for (const { tarball } of tarballs) await copyFile(tarball, join(ciRepo, 'ci', basename(tarball)));
  await runOk('bash', ['-c', 'npm install --no-save --prefer-offline --no-audit --no-fund ./ci/*.tgz'], {
    cwd: ciRepo,
    timeoutMs: 600_000,
  });
}, 900_000);
afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await removeAll([packs, ciRepo]);
}, 60_000);

let served: Promise<string> | undefined;
/** `docproc serve` from the installed tarball (two keys, so tenancy is exercised), started once, once it answers. */
function serveFromTarball(): Promise<string> {
  served ??= startServer();
  return served;
}

async function startServer(): Promise<string> {
  const port = await getPort({ host: '127.0.0.1' });
  const dataDir = join(ciRepo!, 'reference-data');
  const args = [
    'serve',
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    '--processing-delay-ms',
    '50',
    '--api-key',
    'team-key',
    '--api-key',
    'second-team-key',
  ];
  server = spawn(join(ciRepo!, 'node_modules', '.bin', 'docproc'), args, { cwd: ciRepo!, stdio: 'ignore' });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; ) {
    if (server.exitCode !== null) throw new Error(`docproc serve exited with ${server.exitCode}`);
    const answered = await fetch(`${baseUrl}/api/v1/documents/get_documents`, { signal: AbortSignal.timeout(1000) }).then(
      () => true,
      () => false,
    );
    if (answered) return baseUrl;
    if (Date.now() > deadline) throw new Error('docproc serve from the tarball did not answer within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the docproc-kit tarball, installed from a file as the README says', () => {
  it('ships the CLI, its compiled code, the contract, the suite and the fixtures it uploads, but no tests or test-only support', async () => {
    const files = (name: string) => tarballs.find((t) => basename(t.tarball).startsWith(name))!.files;
    const suites = (await readdir(join(repoRoot, 'packages', 'conformance', 'src', 'scenarios'))).map(
      (f) => `dist/scenarios/${f.replace(/\.ts$/, '.js')}`,
    );
    const fixtures = (await readdir(join(repoRoot, 'packages', 'contract', 'fixtures')))
      .filter((f) => !f.endsWith('.test.ts'))
      .map((f) => `fixtures/${f}`);
    expect(packed.files).toEqual(expect.arrayContaining(['bin/docproc.js', 'dist/cli.js', 'dist/client.d.ts', 'openapi.yaml']));
    expect(files('docproc-kit-conformance')).toEqual(expect.arrayContaining(['dist/run/run-conformance.js', ...suites]));
    expect(files('docproc-kit-contract')).toEqual(expect.arrayContaining(['openapi/openapi.yaml', ...fixtures]));
    expect(tarballs.flatMap((t) => t.files).filter((f) => /\.test\.|^(test|proofs|scripts)\//.test(f))).toEqual([]);
  });

  it('answers `npx docproc --help` and `npx docproc conformance --help`', async () => {
    const help = await runOk('npx', ['docproc', '--help'], { cwd: ciRepo!, timeoutMs: 60_000 });
    expect(help.stdout).toMatch(/serve[\s\S]*conformance/);
    const conformanceHelp = await runOk('npx', ['docproc', 'conformance', '--help'], { cwd: ciRepo!, timeoutMs: 60_000 });
    expect(conformanceHelp.stdout).toContain('--base-url');
  }, 120_000);

  it('keeps `docproc-kit/client` importable for those who install the whole kit', async () => {
    const imported = await runOk(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('docproc-kit/client'); console.log(typeof m.createDocprocClient)"],
      { cwd: ciRepo!, timeoutMs: 60_000 },
    );
    expect(imported.stdout.trim()).toBe('function');
  }, 90_000);

  // The README's GitHub Actions step, as a shell runs it: the suite from the tarball, its exit status handed
  // to the CI. One full run against the reference server from the tarball (exit 0, both reports written)
  // and one against nothing (exit 2).
  const ciStep = `status=0
npx docproc conformance --base-url "$DOCPROC_BASE_URL" \\
  --junit reports/conformance.xml --report reports/conformance.json || status=$?
exit "$status"`;
  const ciEnv = (baseUrl: string, extra: NodeJS.ProcessEnv = {}) => ({
    TMPDIR: join(ciRepo!, 'tmp'),
    DOCPROC_BASE_URL: baseUrl,
    DOCPROC_API_KEY: 'team-key',
    DOCPROC_SECOND_API_KEY: 'second-team-key',
    ...extra,
  });

  it('runs the full conformance suite from the tarball against the reference server from the tarball in the README shell step: exit 0, reports written', async () => {
    const env = ciEnv(await serveFromTarball(), { DOCPROC_MAX_FILES: '20', DOCPROC_MAX_FILE_BYTES: '26214400' });
    const result = await run('bash', ['-c', ciStep], { cwd: ciRepo!, timeoutMs: 240_000, env });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(ciRepo!, 'reports', 'conformance.json'), 'utf8')) as {
      result: string;
      profile: string;
      summary: { passed: number; failed: number };
    };
    expect(report).toMatchObject({ result: 'passed', profile: 'full', summary: { failed: 0 } });
    expect(report.summary.passed).toBeGreaterThan(50);
    expect(await readFile(join(ciRepo!, 'reports', 'conformance.xml'), 'utf8')).toMatch(/<testsuites [^>]*failures="0"/);
  }, 300_000);

  // Against nothing, both README forms exit 2: the shell step hands the status on, and the GitHub Actions
  // step (no --base-url, the target from DOCPROC_BASE_URL only) shows the installed CLI reads its environment.
  it.each([
    { form: 'the README shell step', command: ['bash', '-c', ciStep] },
    {
      form: 'the GitHub Actions step',
      command: ['npx', 'docproc', 'conformance', '--junit', 'reports/conformance.xml', '--report', 'reports/conformance.json'],
    },
  ])(
    'hands the exit status to the CI: 2 against an unreachable target, in $form',
    async ({ command }) => {
      const [file, ...args] = command as [string, ...string[]];
      const result = await run(file, args, { cwd: ciRepo!, timeoutMs: 240_000, env: ciEnv('http://127.0.0.1:9') });
      expect(result.code, result.stdout + result.stderr).toBe(2);
      expect(result.stderr).toContain('cannot reach http://127.0.0.1:9');
    },
    300_000,
  );
});

// A frontend team's app with the kit and msw installed from the tarball and the registry: its MSW handlers,
// under msw/node's setupServer, judged by the full conformance profile from the same install (the suite runs
// in its own process, so a tiny server in the app hands each request to the app's fetch, which MSW
// intercepts); the entries bundled for the browser from the installed files; its types in a strict program.
describe('docproc-kit/msw in a fresh app with msw installed', () => {
  let mswApp: string | undefined;
  beforeAll(async () => {
    const msw = JSON.parse(await readFile(join(repoRoot, 'node_modules', 'msw', 'package.json'), 'utf8')) as { version: string };
    mswApp = await scratchProject({ type: 'module' }, [...tarballs.map((t) => t.tarball), `msw@${msw.version}`], 600_000);
  }, 660_000);
  // Deleting an installed app's node_modules takes tens of seconds on a busy machine.
  afterAll(() => removeAll([mswApp]), 120_000);

  // The handlers have no OCR (packages/msw/README.md): a legible scan completes with no text, so the one
  // check that reads scans fails, and every other passes.
  it('runs the full conformance profile against createDocprocHandlers under msw/node: every check passes but the OCR one', async () => {
    await writeFile(
      join(mswApp!, 'conformance-msw.mjs'),
      `import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { setupServer } from 'msw/node';
import { createDocprocHandlers } from 'docproc-kit/msw';
const keys = ['app-key', 'app-second-key'];
const base = 'http://docproc.app.test';
const handlers = createDocprocHandlers({ apiKeys: keys, baseUrl: base, processingDelayMs: 200, maxFileBytes: 65536 });
const msw = setupServer(...handlers);
msw.listen({ onUnhandledRequest: 'error' });
const skip = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect']);
const bridge = createServer(async (req, res) => {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (!skip.has(req.rawHeaders[i].toLowerCase())) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
  const answer = await fetch(base + req.url, { method: req.method, headers, body, redirect: 'manual' });
  const bytes = Buffer.from(await answer.arrayBuffer());
  res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(req.method === 'HEAD' ? undefined : bytes);
});
await new Promise((resolve) => bridge.listen(0, '127.0.0.1', resolve));
const args = ['conformance', '--base-url', 'http://127.0.0.1:' + bridge.address().port, '--api-key', keys[0], '--second-api-key', keys[1],
  '--max-files', '20', '--max-file-bytes', '65536', '--report', 'reports/msw.json'];
const suite = spawn('node_modules/.bin/docproc', args, { stdio: 'inherit' });
const code = await new Promise((resolve) => suite.on('exit', resolve));
bridge.closeAllConnections();
bridge.close();
msw.close();
await handlers.close();
process.exit(code);
`,
    );
    const result = await run(process.execPath, ['conformance-msw.mjs'], { cwd: mswApp!, timeoutMs: 240_000, env: { TMPDIR: mswApp! } });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const report = JSON.parse(await readFile(join(mswApp!, 'reports', 'msw.json'), 'utf8')) as {
      result: string;
      profile: string;
      checks: { id: string; outcome: string }[];
    };
    expect(report).toMatchObject({ result: 'failed', profile: 'full' });
    expect(report.checks.filter((c) => c.outcome !== 'passed').map((c) => `${c.id}: ${c.outcome}`)).toEqual([
      'lifecycle.scan-read-by-ocr: failed',
    ]);
  }, 300_000);

  it('bundles docproc-kit/msw and docproc-kit/fetch for the browser from the installed files, with no Node built-in', async () => {
    const nodeImports: string[] = [];
    const result = await build({
      stdin: { contents: "export * from 'docproc-kit/msw'; export * from 'docproc-kit/fetch';", resolveDir: mswApp!, loader: 'js' },
      bundle: true,
      splitting: true,
      outdir: 'out',
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      plugins: [
        {
          name: 'record-node-imports',
          setup(b) {
            b.onResolve({ filter: /.*/ }, ({ path, importer }) => {
              if (!path.startsWith('node:') && !builtinModules.includes(path.split('/')[0]!)) return undefined;
              nodeImports.push(`${importer} imports ${path}`);
              return { path, external: true };
            });
          },
        },
      ],
    });
    expect(result.errors).toEqual([]);
    expect(nodeImports).toEqual([]);
  }, 60_000);

  it('type-checks a strict program using the handlers, the fetch mock and the client together', async () => {
    await writeFile(
      join(mswApp!, 'mock-consumer.ts'),
      `import { setupServer } from 'msw/node';
import { createDocprocClient } from 'docproc-kit/client';
import { createDocprocFetch } from 'docproc-kit/fetch';
import { createDocprocHandlers, type DocprocHandlers } from 'docproc-kit/msw';

const handlers: DocprocHandlers = createDocprocHandlers({ baseUrl: 'http://docproc.test', processingDelayMs: 0, extractText: () => 'RECEIPT' });
export const server = setupServer(...handlers);
export const client = createDocprocClient({ baseUrl: 'http://docproc.test', apiKey: 'docproc-dev-key', fetch: createDocprocFetch({ anyOrigin: true }) });
export const seeded: Promise<string[]> = handlers.controls.seed([{ status: 'failed', count: 2 }]).then((docs) => docs.map((d) => d.filename));
// @ts-expect-error: a seeded document is processing, completed or failed
void handlers.controls.seed([{ status: 'archived' }]);
// @ts-expect-error: where the handlers answer is said, by baseUrl or anyOrigin
createDocprocHandlers({ processingDelayMs: 0 });
`,
    );
    const compilerOptions = {
      module: 'esnext',
      moduleResolution: 'bundler',
      target: 'ES2022',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    };
    await writeFile(join(mswApp!, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['mock-consumer.ts'] }));
    const checked = await run(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
      cwd: mswApp!,
      timeoutMs: 120_000,
    });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  }, 150_000);
});
