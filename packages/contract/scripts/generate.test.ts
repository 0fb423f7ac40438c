import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./generate.ts', import.meta.url));
const generatedDir = fileURLToPath(new URL('../src/generated/', import.meta.url));
const spec = fileURLToPath(new URL('../openapi/openapi.yaml', import.meta.url));
const generated = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docproc-drift-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// The script is TypeScript: node runs it with tsx's loader, as `npm run check:drift` does through tsx.
async function check(specPath: string, outDir: string) {
  return run(process.execPath, [
    '--conditions=docproc-source',
    '--import',
    'tsx',
    script,
    '--check',
    '--spec',
    specPath,
    '--out-dir',
    outDir,
  ]).then(
    (r) => ({ code: 0, output: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr }),
  );
}

// Each check spawns node and loads TypeScript and openapi-typescript: about 7 s alone, far more on a busy
// 2-core machine.
const SPAWN_TIMEOUT_MS = 90_000;

describe('the drift check of what is generated from the contract', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('passes on the committed contract and generated files', async () => {
    expect((await check(spec, generatedDir)).code).toBe(0);
  });

  it('fails, naming the fix, when the contract was edited without regenerating', async () => {
    const edited = join(dir, 'edited.yaml');
    const text = await readFile(spec, 'utf8');
    await writeFile(edited, text.replace('enum: [processing, completed, failed]', 'enum: [processing, completed, failed, archived]'));
    const result = await check(edited, generatedDir);
    expect(result.code).toBe(1);
    expect(result.output).toContain('npm run generate');
  });

  it.each([
    ['the types', 'openapi.ts', '"files[]": Blob[]', '"files[]": string[]'],
    ['the values', 'contract-values.ts', '"maxFilenameLength": 255', '"maxFilenameLength": 300'],
  ])('fails when %s were edited by hand', async (_what, name, from, to) => {
    const out = join(dir, `edited-${name}`);
    await mkdir(out, { recursive: true });
    for (const file of ['openapi.ts', 'contract-values.ts']) await copyFile(join(generatedDir, file), join(out, file));
    await writeFile(join(out, name), (await readFile(join(out, name), 'utf8')).replace(from, to));
    const result = await check(spec, out);
    expect(result.code).toBe(1);
    expect(result.output).toContain(join(out, name));
  });

  it('types multipart file parts as Blob so uploads need no casts', async () => {
    expect(await readFile(generated, 'utf8')).toContain('"files[]": Blob[];');
  });
});
