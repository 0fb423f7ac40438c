import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The contract, untouched, through two popular TypeScript client generators (their real CLIs), and
// the generated code through the TypeScript compiler.
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const spec = join(root, 'packages/contract/openapi/openapi.yaml');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docproc-generators-'));
  await Promise.all([
    run(bin('swagger-typescript-api'), ['generate', '--path', spec, '--output', join(dir, 'sta'), '--name', 'api.ts'], {
      cwd: dir,
      timeout: 120_000,
    }),
    run(bin('openapi-ts'), ['--input', spec, '--output', join(dir, 'hey')], { cwd: dir, timeout: 120_000 }),
  ]);
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include: ['sta', 'hey'],
    }),
  );
}, 180_000);
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

describe('client generators on the contract as it is', () => {
  it('swagger-typescript-api starts from a real base URL, not the literal {base_url}', async () => {
    const api = await readFile(join(dir, 'sta/api.ts'), 'utf8');
    expect(api).toContain('public baseUrl: string = "http://localhost:4010";');
  });

  it('swagger-typescript-api declares its own ContentType once, not merged with a schema of that name', async () => {
    const api = await readFile(join(dir, 'sta/api.ts'), 'utf8');
    expect(api.match(/export (enum|type) ContentType\b/g)).toHaveLength(1);
    expect(api).toMatch(/content_type: DocumentContentType;/);
  });

  it('@hey-api/openapi-ts configures its client with the real base URL', async () => {
    const client = await readFile(join(dir, 'hey/client.gen.ts'), 'utf8');
    expect(client).toContain("baseUrl: 'http://localhost:4010'");
  });

  it('both outputs type-check under strict TypeScript', async () => {
    const { stdout } = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], {
      timeout: 120_000,
    }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(stdout).toBe('');
  }, 150_000);
});
