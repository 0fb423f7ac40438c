import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { namedButMissing, partsOf, presentButUndescribed, type Tree } from './architecture-doc.js';

// docs/architecture.md is the map a newcomer reads before the tree; these tests hold it to the tree both ways,
// so a folder renamed, added or removed, or an entry declared, shows up here instead of in a wrong turn.
const root = fileURLToPath(new URL('../../', import.meta.url));
const repository = (): Tree => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && existsSync(join(root, f)));
  const workspaces: string[] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
  return {
    files,
    present: (path) => existsSync(join(root, path)),
    manifests: workspaces.map((dir) => ({ dir, ...JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) })),
  };
};

describe('docs/architecture.md', () => {
  const parts = partsOf(readFileSync(join(root, 'docs/architecture.md'), 'utf8'));
  const tree = repository();

  it('names only folders, files and entries that exist', () => {
    expect(namedButMissing(parts, tree)).toEqual([]);
  });

  it("describes every package, every folder of a package and of its src/, every folder of the repository, and every package's installed entries", () => {
    expect(presentButUndescribed(parts, tree)).toEqual([]);
  });
});

describe('the architecture doc check', () => {
  const tree: Tree = {
    files: ['packages/lib/src/core.ts', 'packages/lib/src/api/keys.ts', 'packages/lib/package.json', 'test/support/x.ts'],
    present: () => false,
    manifests: [
      {
        dir: 'packages/lib',
        name: '@x/lib',
        exports: {
          './core.js': { 'docproc-source': './src/core.ts', default: './dist/core.js' },
          './api/keys.js': { 'docproc-source': './src/api/keys.ts' },
        },
      },
    ],
  };
  const doc = (rows: string, prose = '') =>
    partsOf(
      [
        '| Package | Role |',
        '|---|---|',
        '| `packages/lib/` | a lib |',
        prose,
        '### `packages/lib/` (`@x/lib`)',
        '| Folder | Role |',
        '|---|---|',
        rows,
        '## Outside the packages',
        '| Folder | Role |',
        '|---|---|',
        '| `test/` | `support/` |',
      ].join('\n'),
    );
  const complete = '| `src/` | `core.ts` |\n| `src/api/` | the keys |';

  it('passes a document that matches the tree', () => {
    expect(namedButMissing(doc(complete), tree)).toEqual([]);
    expect(presentButUndescribed(doc(complete), tree)).toEqual([]);
  });

  it.each([
    { name: 'a row of a folder that is gone', rows: `${complete}\n| \`src/old/\` | gone |`, prose: '', says: 'row `src/old/`' },
    {
      name: 'a file a row names that is gone',
      rows: '| `src/` | `core.ts`, `api/secret.ts` |\n| `src/api/` | the keys |',
      prose: '',
      says: '`api/secret.ts`',
    },
    { name: 'an entry no package declares', rows: complete, prose: 'Import `@x/lib/api/secret.js`.', says: '`@x/lib/api/secret.js`' },
  ])('fails on $name', ({ rows, prose, says }) => {
    expect(namedButMissing(doc(rows, prose), tree)).toEqual([expect.stringContaining(says)]);
  });

  it.each([
    { name: 'a folder of src/ without its row', rows: '| `src/` | `core.ts` |', says: 'packages/lib/src/api/: no row' },
    {
      name: 'an installed entry its section does not name',
      rows: '| `src/` | the core |\n| `src/api/` | the keys |',
      says: '@x/lib/core.js',
    },
  ])('fails on $name', ({ rows, says }) => {
    expect(presentButUndescribed(doc(rows), tree)).toEqual([expect.stringContaining(says)]);
  });
});
