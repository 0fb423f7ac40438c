import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { distIsFresh } from './fresh-build.js';

// The tests that start the CLI trust dist/; this is what tells them it is stale.
let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A checkout with one source file and the tsconfigs, each file at the given time (seconds). */
function checkout(times: { source: number; built?: number; config?: number; test?: number }): string {
  root = mkdtempSync(join(tmpdir(), 'fresh-build-'));
  const file = (path: string, seconds: number) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), seconds, seconds);
  };
  file('packages/docproc-kit/src/commands/serve.ts', times.source);
  file('tsconfig.json', times.config ?? 0);
  file('packages/docproc-kit/tsconfig.build.json', times.config ?? 0);
  if (times.test !== undefined) file('packages/docproc-kit/src/commands/serve.test.ts', times.test);
  if (times.built !== undefined) file('packages/docproc-kit/dist/cli.js', times.built);
  // Directory times follow the files written into them; only files are compared here.
  for (const dir of ['packages/docproc-kit/src', 'packages/docproc-kit/src/commands']) utimesSync(join(root, dir), 0, 0);
  return root;
}

describe('dist/ is rebuilt for the process tests', () => {
  it.each([
    { when: 'it was never built', times: { source: 100 }, fresh: false },
    { when: 'a source file changed after the build', times: { source: 200, built: 100 }, fresh: false },
    { when: 'a tsconfig changed after the build', times: { source: 50, config: 200, built: 100 }, fresh: false },
    { when: 'nothing changed since the build', times: { source: 50, built: 100 }, fresh: true },
    { when: 'only a test file changed since the build', times: { source: 50, test: 200, built: 100 }, fresh: true },
  ])('when $when: fresh is $fresh', ({ times, fresh }) => {
    expect(distIsFresh(checkout(times))).toBe(fresh);
  });
});
