import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entryTargets, namedPackages, packedFiles, reachedFiles } from './shipped-files.js';

// Nothing ships that nobody uses: a package's tarball holds what its declared entries (and bins) reach, and
// each of its runtime dependencies is named by that code. Read from `npm pack --dry-run` of the packages'
// current dist/ (vitest's global setup rebuilt it), so no install is needed.
const root = fileURLToPath(new URL('../../', import.meta.url));
const packages = readdirSync(join(root, 'packages')).sort();
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
// Documentation and the manifest ship whatever the code reaches.
const ALWAYS = /(^|\/)([^/]+\.md|LICENSE[^/]*|package\.json)$/;

describe('what each package ships', () => {
  it.each(packages)('%s: its tarball holds only what its entries reach, and every dependency is used', async (pkg) => {
    const dir = join(root, 'packages', pkg);
    const manifest = manifestOf(dir);
    const packed = await packedFiles(dir);
    const reached = reachedFiles(dir, entryTargets(manifest));
    expect(packed.filter((file) => !reached.has(file) && !ALWAYS.test(file))).toEqual([]);

    const named = namedPackages(
      dir,
      packed.filter((file) => reached.has(file)),
    );
    // A dependency can also be installed for another dependency's optional peer (ajv for the contract's loader).
    const peersOfDependencies = new Set(
      Object.keys(manifest.dependencies ?? {})
        .filter((dep) => dep.startsWith('@docproc-kit/'))
        .flatMap((dep) => Object.keys(manifestOf(join(root, 'packages', dep.slice('@docproc-kit/'.length))).peerDependencies ?? {})),
    );
    expect(Object.keys(manifest.dependencies ?? {}).filter((dep) => !named.has(dep) && !peersOfDependencies.has(dep))).toEqual([]);
  });
});

describe('the check of what ships', () => {
  it('follows imports, files named at run time and folders, and leaves what no entry reaches', () => {
    const dir = join(root, 'test/architecture/shipped-sample');
    // lib/steps/b.js and lib/unused.js are there, and nothing names them.
    const reached = reachedFiles(dir, ['lib/index.js']);
    expect([...reached].sort()).toEqual(['lib/index.js', 'lib/scenarios/one.js', 'lib/steps/a.js', 'lib/worker.js']);
  });
});
