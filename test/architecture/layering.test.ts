import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Manifest, resolvedByName, undeclaredImports, wildcardEntries } from './declared-entries.js';
import { cycles, folderEdges, importsOf, isTest, type SourceImport, sourceFiles } from './import-graph.js';

// The layout is the architecture: these tests read every import of every package, so a folder that
// starts depending on one that depends on it back, or a shipped file that needs what its package does not
// declare, fails here instead of in a newcomer's head.
const root = fileURLToPath(new URL('../../', import.meta.url));
const packages = readdirSync(join(root, 'packages')).sort();
const manifest = (pkg: string) => JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8'));
const importsIn = (dir: string, keep: (file: string) => boolean = (f) => !isTest(f)): SourceImport[] =>
  sourceFiles(root, dir)
    .filter(keep)
    .flatMap((file) => importsOf(root, file));

/**
 * The suite's folders from the bottom up: each imports only the folders before it. Definitions (a check,
 * a verdict, the config, what an exchange is) know nothing of how requests are sent; the transport knows
 * nothing of checks; the harness is what a scenario file is written in; observe judges traffic seen instead of sent (the
 * proxy's), with the checks and the reports; the run loads scenario files by path.
 */
const SUITE_LAYERS = [
  'rules',
  'definitions',
  'inputs',
  'transport',
  'checks',
  'judging',
  'model',
  'oracle',
  'harness',
  'scenarios',
  'report',
  'observe',
  'run',
];

describe('the folders of every package', () => {
  it.each(packages)('%s: no folder depends on a folder that depends on it, at any depth', (pkg) => {
    const found = [...folderEdges(importsIn(`packages/${pkg}`))].flatMap(([parent, edges]) =>
      cycles(edges).map((cycle) => `${parent}: ${cycle.join(' -> ')}`),
    );
    expect(found).toEqual([]);
  });

  it('the suite: every folder of src/ has its layer, and imports only the layers below it', () => {
    const src = 'packages/conformance/src';
    const folders = readdirSync(join(root, src), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !SUITE_LAYERS.includes(f))).toEqual([]);
    const upward = importsIn(src)
      .filter((i) => i.to?.startsWith(`${src}/`) && i.from.split('/').length > 4 && i.to.split('/').length > 4)
      .map((i) => ({ ...i, a: i.from.split('/')[3]!, b: i.to!.split('/')[3]! }))
      .filter(({ a, b }) => SUITE_LAYERS.indexOf(b) > SUITE_LAYERS.indexOf(a))
      .map(({ from, specifier }) => `${from} imports ${specifier}`);
    expect(upward).toEqual([]);
  });
});

describe('what each package ships', () => {
  it.each(packages)('%s: its shipped files import only node built-ins, itself and its declared dependencies', (pkg) => {
    const { name, dependencies = {}, peerDependencies = {} } = manifest(pkg);
    const declared = new Set([name, ...Object.keys(dependencies), ...Object.keys(peerDependencies)]);
    // What the build compiles into dist/: the TypeScript of src/ (an .mjs beside it runs from a clone only).
    const undeclared = importsIn(`packages/${pkg}/src`, (f) => f.endsWith('.ts') && !isTest(f))
      .filter((i) => !i.specifier.startsWith('.') && !i.specifier.startsWith('node:') && !builtinModules.includes(i.specifier))
      .filter((i) => {
        const bare = i.specifier.startsWith('@') ? i.specifier.split('/').slice(0, 2).join('/') : i.specifier.split('/')[0]!;
        return !declared.has(bare);
      })
      .map((i) => `${i.from} imports ${i.specifier}`);
    expect(undeclared).toEqual([]);
  });

  it('no file reaches into another package or the shared test support by a relative path', () => {
    // Each workspace is a package of its own (the root's test/, bench/ and scripts/ are the root's); another
    // one is imported by its name: @docproc-kit/test-support/..., @docproc-kit/conformance/proofs/...
    const workspaces: string[] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
    const owner = (file: string) => workspaces.find((w) => file.startsWith(`${w}/`)) ?? '.';
    const reaching = ['packages', 'test', 'bench', 'scripts']
      .flatMap((dir) => importsIn(dir, () => true))
      .filter((i) => i.to && owner(i.to) !== owner(i.from))
      .map((i) => `${i.from} imports ${i.specifier}`);
    expect(reaching).toEqual([]);
  });

  const workspaceManifests = (): Manifest[] =>
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces as string[]).map((w) =>
      JSON.parse(readFileSync(join(root, w, 'package.json'), 'utf8')),
    );
  /** A file that ships: the TypeScript of a package's src/, tests aside (what the build compiles into dist/). */
  const shipped = (file: string) => /^packages\/[^/]+\/src\//.test(file) && file.endsWith('.ts') && !isTest(file);

  it.each(packages)('%s: its exports name every entry (no pattern such as ./*.js)', (pkg) => {
    expect(wildcardEntries(manifest(pkg))).toEqual([]);
  });

  it('every import of a package by name is an entry its exports declare, and shipped code imports only the installed ones', () => {
    const byName = ['packages', 'test', 'bench', 'scripts'].flatMap((dir) =>
      sourceFiles(root, dir).flatMap((file) => [
        ...importsOf(root, file),
        ...resolvedByName(readFileSync(join(root, file), 'utf8')).map((specifier) => ({ from: file, specifier })),
      ]),
    );
    expect(undeclaredImports(byName, workspaceManifests(), shipped)).toEqual([]);
  });

  it.each([
    { name: 'an internal module no entry names', specifier: '@docproc-kit/suite/checks/index.js', from: 'packages/kit/src/proxy/judge.ts' },
    {
      name: 'a repository-only entry, from shipped code',
      specifier: '@docproc-kit/suite/proofs/mutants.js',
      from: 'packages/kit/src/proxy/judge.ts',
    },
  ])('the check fails on $name', ({ specifier, from }) => {
    const suite: Manifest = {
      name: '@docproc-kit/suite',
      exports: {
        '.': { types: './dist/index.d.ts', default: './dist/index.js' },
        './observe': { 'docproc-source': './src/observe/index.ts', default: './dist/observe/index.js' },
        './proofs/mutants.js': { 'docproc-source': './proofs/mutants.ts' },
      },
    };
    expect(undeclaredImports([{ from, specifier }], [suite], shipped)).toEqual([expect.stringContaining(`${from} imports ${specifier}`)]);
    // The same package's declared entries pass, and a test may use the repository-only one.
    const declared = [
      { from, specifier: '@docproc-kit/suite' },
      { from, specifier: '@docproc-kit/suite/observe' },
      { from: 'packages/kit/src/proxy/judge.test.ts', specifier: '@docproc-kit/suite/proofs/mutants.js' },
      { from, specifier: 'undici' },
    ];
    expect(undeclaredImports(declared, [suite], shipped)).toEqual([]);
  });
});
