import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../support/reference-server.js';
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
      expect.arrayContaining([
        'README.md',
        'package.json',
        'dist/client/index.js',
        'dist/client/index.d.ts',
        'dist/generated/openapi.d.ts',
      ]),
    );
    expect(packed.files.filter((f) => !/^dist\/.+\.(js|d\.ts)$/.test(f) && f !== 'README.md' && f !== 'package.json')).toEqual([]);
    expect(packed.files.filter((f) => f.includes('.test.'))).toEqual([]);
  });

  it('installs nothing but openapi-fetch and what it needs, well under a megabyte', async () => {
    expect(await installedPackages(app!)).toEqual(['@docproc-kit/client', 'openapi-fetch', 'openapi-typescript-helpers']);
    expect(await diskBytes(join(app!, 'node_modules'))).toBeLessThan(1024 * 1024);
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
    expect(bundle.length).toBeLessThan(20 * 1024);
  }, 60_000);

  it('imports as ESM in Node and uploads a file to the reference server, then reads its text back', async () => {
    server = await startReferenceServer({ processingDelayMs: 50 });
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
    const { stdout } = await runOk(process.execPath, [script, server.baseUrl, join(repoRoot, 'fixtures', 'text.pdf')], {
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
