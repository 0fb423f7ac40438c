import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Dependencies point one way: scenarios and the model -> checks and judging -> kit (the transport).
const src = fileURLToPath(new URL('../', import.meta.url));

/** The folders (under src/) that the non-test files of `folder` import from. */
function importsOf(folder: string, except: string[] = []): string[] {
  const files = readdirSync(join(src, folder), { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !except.includes(f),
  );
  return files.flatMap((file) =>
    [...readFileSync(join(src, folder, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map(
      (m) => `${folder}/${file} -> ${relative(src, resolve(dirname(join(src, folder, file)), m[1]!))}`,
    ),
  );
}

const reaching = (imports: string[], folders: string[]) =>
  imports.filter((line) => folders.some((f) => line.split(' -> ')[1]!.startsWith(`${f}/`)));

describe('the layers of the suite', () => {
  it('kit/ is transport only: nothing in it imports the checks, the judging, the model or the scenarios', () => {
    // suite.ts wires the judging into the transport for a scenario file: the runner's entry, not transport.
    expect(reaching(importsOf('kit', ['suite.ts']), ['checks', 'judging', 'model', 'scenarios'])).toEqual([]);
  });

  it('checks/ and judging/ never import the model or the scenarios', () => {
    expect(reaching([...importsOf('checks'), ...importsOf('judging')], ['model', 'scenarios'])).toEqual([]);
  });
});
