import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./generate-types.js', import.meta.url));
const spec = fileURLToPath(new URL('../openapi/openapi.yaml', import.meta.url));
const generated = fileURLToPath(new URL('../src/generated/openapi.d.ts', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docproc-drift-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function check(specPath: string, outPath: string) {
  return run(process.execPath, [script, '--check', '--spec', specPath, '--out', outPath]).then(
    (r) => ({ code: 0, output: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr }),
  );
}

// Each check spawns node and loads TypeScript and openapi-typescript: about 7 s alone, far more on a busy
// 2-core machine.
const SPAWN_TIMEOUT_MS = 90_000;

describe('the generated-types drift check', { timeout: SPAWN_TIMEOUT_MS }, () => {
  it('passes on the committed contract and generated file', async () => {
    expect((await check(spec, generated)).code).toBe(0);
  });

  it('fails, naming the fix, when the contract was edited without regenerating', async () => {
    const edited = join(dir, 'edited.yaml');
    const text = await readFile(spec, 'utf8');
    await writeFile(edited, text.replace('enum: [processing, completed, failed]', 'enum: [processing, completed, failed, archived]'));
    const result = await check(edited, generated);
    expect(result.code).toBe(1);
    expect(result.output).toContain('npm run generate');
  });

  it('fails when the generated file was edited by hand', async () => {
    const out = join(dir, 'openapi.d.ts');
    await copyFile(generated, out);
    await writeFile(out, (await readFile(out, 'utf8')).replace('"files[]": Blob[]', '"files[]": string[]'));
    expect((await check(spec, out)).code).toBe(1);
  });

  it('types multipart file parts as Blob so uploads need no casts', async () => {
    expect(await readFile(generated, 'utf8')).toContain('"files[]": Blob[];');
  });
});
