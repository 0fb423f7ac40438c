import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyWorkingTree,
  diskBytes,
  installedPackages,
  npmPack,
  type PackedTarball,
  removeAll,
  repoRoot,
  run,
  runOk,
  scratchProject,
} from './packing.js';

// @docproc-kit/client as a browser app gets it: packed from a copy of this working tree, installed alone
// into a new project, then used from Node and type-checked the way a bundler or Node would resolve it.
let clone: string | undefined;
let packs: string | undefined;
let app: string | undefined;
let packed: PackedTarball;
let server: RunningReferenceServer | undefined;
beforeAll(async () => {
  clone = await copyWorkingTree();
  packs = await mkdtemp(join(tmpdir(), 'docproc-packs-'));
  packed = await npmPack(clone, ['-w', '@docproc-kit/client'], packs, 120_000);
  app = await scratchProject({ type: 'module' }, [packed.tarball], 180_000);
}, 360_000);
afterAll(async () => {
  await server?.close();
  await removeAll([clone, packs, app]);
});

const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

// A consumer in strict mode, with the library's declarations checked too (skipLibCheck off). Its two
// expected errors fail the check if the types ever degrade to \`any\`.
const consumer = `
import { createDocprocClient, DocprocProblemError, WaitTimeoutError, type ClientError, type Document, type paths } from '@docproc-kit/client';

const docproc = createDocprocClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'docproc-dev-key' });

export async function firstFailed(): Promise<string | undefined> {
  const { data, error } = await docproc.listDocuments({ status_filter: 'failed', limit: 10 });
  if (error) {
    const problem: ClientError = error;
    return problem.code;
  }
  return data.documents[0]?.filename;
}

export async function statusOf(id: number): Promise<Document['status'] | undefined> {
  return (await docproc.getDocument(id)).data?.status;
}

export const errorClasses = [DocprocProblemError, WaitTimeoutError];
export type Paths = keyof paths;

// @ts-expect-error: status_filter is the contract's enum
void docproc.listDocuments({ status_filter: 'archived' });
// @ts-expect-error: the API key is required
createDocprocClient({ baseUrl: 'http://127.0.0.1:4010' });
`;

describe('@docproc-kit/client packed and installed on its own', () => {
  it('ships only its compiled code, its types (with the generated contract types) and README: no sources or tests', () => {
    expect(packed.files).toEqual(
      expect.arrayContaining(['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/openapi.d.ts']),
    );
    expect(packed.files.filter((f) => !/^dist\/.+\.(js|d\.ts)$/.test(f) && f !== 'README.md' && f !== 'package.json')).toEqual([]);
    expect(packed.files.filter((f) => f.includes('.test.'))).toEqual([]);
  });

  it('installs nothing but openapi-fetch and what it needs, well under a megabyte', async () => {
    expect(await installedPackages(app!)).toEqual(['@docproc-kit/client', 'openapi-fetch', 'openapi-typescript-helpers']);
    const bytes = await diskBytes(join(app!, 'node_modules'));
    console.log(`@docproc-kit/client installed: ${(bytes / 1000).toFixed(0)} kB under node_modules`);
    expect(bytes).toBeLessThan(1024 * 1024);
  });

  it('bundles from the installed package for the browser, minified under 20 kB, with no Node built-in', async () => {
    const result = await build({
      stdin: { contents: "export { createDocprocClient } from '@docproc-kit/client';", resolveDir: app!, loader: 'js' },
      bundle: true,
      minify: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const bundle = result.outputFiles[0]!.text;
    expect(bundle).not.toMatch(/["']node:/);
    console.log(`@docproc-kit/client bundled for the browser by esbuild, minified: ${(bundle.length / 1000).toFixed(1)} kB`);
    expect(bundle.length).toBeLessThan(20 * 1024);
  }, 60_000);

  it('imports as ESM in Node and uploads a file to the reference server, then reads its text back', async () => {
    server ??= await startReferenceServer({ processingDelayMs: 50 });
    const script = join(app!, 'smoke.mjs');
    await writeFile(
      script,
      `import { readFile } from 'node:fs/promises';
import { createDocprocClient } from '@docproc-kit/client';
const [baseUrl, pdf] = process.argv.slice(2);
const docproc = createDocprocClient({ baseUrl, apiKey: 'docproc-dev-key' });
const { data, error } = await docproc.uploadDocuments([{ name: 'smoke.pdf', data: await readFile(pdf) }]);
if (error) throw new Error(error.detail);
const { data: done } = await docproc.waitForDocument(data.documents[0].document_id, { timeoutMs: 30_000 });
console.log(JSON.stringify({ status: done.status, content: done.content }));
`,
    );
    const { stdout } = await runOk(process.execPath, [script, server.baseUrl, fixturePath('text.pdf')], {
      cwd: app!,
      timeoutMs: 60_000,
    });
    expect(JSON.parse(stdout)).toMatchObject({ status: 'completed', content: expect.stringContaining('PELICAN') });
  }, 90_000);

  it.each([
    { moduleResolution: 'node16', module: 'node16' },
    { moduleResolution: 'bundler', module: 'esnext' },
  ])(
    'type-checks a strict consumer under moduleResolution $moduleResolution, rejecting calls the contract forbids',
    async (settings) => {
      await writeFile(join(app!, 'consumer.ts'), consumer);
      const config = `tsconfig.${settings.moduleResolution}.json`;
      const compilerOptions = {
        ...settings,
        target: 'ES2022',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: [],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      };
      await writeFile(join(app!, config), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
      const checked = await run(process.execPath, [tsc, '-p', config], { cwd: app!, timeoutMs: 120_000 });
      expect(checked.stdout + checked.stderr).toBe('');
      expect(checked.code).toBe(0);
    },
    150_000,
  );
});

// The done-when of the client's retry, on the packed client: a flaky network (a proxy that drops every
// second upload's answer after the server stored it) in front of a reference server injecting 503 and 429
// into half the uploads and reads. Ten uploads, then a wait for each and a count: exactly ten documents,
// all completed, no error surfaced. The faults are random: with half of all attempts refused, 20 attempts
// leave an upload failing with a chance of about 2^-19 (a run of 10 uploads: about 1 in 50 000).
describe('@docproc-kit/client with retry on, through a network that loses answers, against a server that sheds load', () => {
  let proxy: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve())));

  it('stores each of 10 uploads exactly once and waits each to completed, surfacing no error', async () => {
    server ??= await startReferenceServer({ processingDelayMs: 50 });
    const key = 'docproc-dev-key';
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    await fetch(`${server.baseUrl}/_mock/reset`, { method: 'POST', headers });
    const faults = await fetch(`${server.baseUrl}/_mock/faults`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({
        errors: {
          uploadDocuments: { rate: 0.5, status: 503, retry_after_s: 1 },
          listDocuments: { rate: 0.5, status: 429, retry_after_s: 1 },
          getDocument: { rate: 0.5, status: 429, retry_after_s: 1 },
        },
      }),
    });
    expect(faults.status).toBe(200);
    const target = server.baseUrl;
    let stored = 0;
    let dropped = 0;
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const forwarded = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      );
      const body = chunks.length ? new Uint8Array(Buffer.concat(chunks)) : undefined;
      const answer = await fetch(`${target}${req.url}`, { method: req.method, headers: forwarded as Record<string, string>, body });
      const bytes = Buffer.from(await answer.arrayBuffer());
      // The server stored the upload (a 202 that is not a replay); every second such answer never reaches the client.
      const storing = req.url!.endsWith('/upload_files') && answer.status === 202 && !answer.headers.has('idempotent-replayed');
      if (storing && ++stored % 2 === 0) {
        dropped++;
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(bytes);
    });
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const script = join(app!, 'flaky.mjs');
    await writeFile(
      script,
      `import { readFile } from 'node:fs/promises';
import { createDocprocClient } from '@docproc-kit/client';
const [baseUrl, pdf] = process.argv.slice(2);
const docproc = createDocprocClient({ baseUrl, apiKey: 'docproc-dev-key', retry: { attempts: 20, maxDelayMs: 2000 } });
const data = await readFile(pdf);
const surfaced = [];
const done = await Promise.all(Array.from({ length: 10 }, async (_, i) => {
  const up = await docproc.uploadDocuments([{ name: 'flaky-' + i + '.pdf', data }]);
  if (up.error) return surfaced.push(up.error);
  const read = await docproc.waitForDocument(up.data.documents[0].document_id, { timeoutMs: 60_000 });
  if (read.error) return surfaced.push(read.error);
  return read.data.status;
}));
const list = await docproc.listDocuments({ limit: 100 });
if (list.error) surfaced.push(list.error);
console.log(JSON.stringify({ done, total: list.data?.pagination.total, names: list.data?.documents.map((d) => d.filename).sort(), surfaced }));
`,
    );
    const { stdout } = await runOk(process.execPath, [script, proxyUrl, fixturePath('text.pdf')], {
      cwd: app!,
      timeoutMs: 120_000,
    });
    expect(JSON.parse(stdout)).toEqual({
      done: Array(10).fill('completed'),
      total: 10,
      names: Array.from({ length: 10 }, (_, i) => `flaky-${i}.pdf`).sort(),
      surfaced: [],
    });
    expect(dropped).toBe(5);
  }, 150_000);
});
