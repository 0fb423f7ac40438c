import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';

/** What `npm pack` puts in a package's tarball: its files, relative to the package's folder. */
export async function packedFiles(dir: string): Promise<string[]> {
  // --ignore-scripts: the list of what would be packed, without the build a prepack runs.
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: dir,
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
  return pack!.files.map((f) => f.path).sort();
}

/** Every file an entry's target names (each condition's), relative to the package's folder. */
export function entryTargets(manifest: { exports?: Record<string, unknown>; bin?: Record<string, string> | string }): string[] {
  const targets = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(targets) : [];
  const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
  return [...targets(manifest.exports ?? {}), ...bins].map((t) => normalize(t));
}

// In compiled code, any relative path in quotes: an import, and a file or folder loaded at run time (a worker,
// a child process, the scenario files, the migrations), as `new URL('./x.js', import.meta.url)` names them.
const RELATIVE = /['"`]((?:\.{1,2}\/)+[\w@-][^'"`$]*)['"`]/g;

/**
 * The files of a package that its entries reach: each entry's file, what it imports relatively or names by
 * `new URL(..., import.meta.url)`, transitively, with each compiled file's declaration and source map.
 * @example reachedFiles('packages/client', ['dist/index.js', 'dist/index.d.ts'])
 */
export function reachedFiles(dir: string, roots: string[]): Set<string> {
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file) || !existsSync(join(dir, file))) return;
    if (statSync(join(dir, file)).isDirectory()) {
      for (const inside of readdirSync(join(dir, file), { recursive: true, encoding: 'utf8' })) visit(join(file, inside));
      return;
    }
    reached.add(file);
    if (!/\.(m?js|d\.ts)$/.test(file)) return;
    // A compiled module ships with its declaration and source maps, and a declaration with its module.
    for (const companion of [`${file}.map`, file.replace(/\.js$/, '.d.ts'), file.replace(/\.d\.ts$/, '.js')]) visit(companion);
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(RELATIVE)) {
      const target = normalize(join(dirname(file), m[1]!));
      // A declaration names a module with or without its .js.
      for (const candidate of [target, `${target}.js`, `${target}.d.ts`, target.replace(/\.js$/, '.d.ts')]) visit(candidate);
    }
  };
  for (const root of roots) visit(root);
  return reached;
}

/**
 * The packages a set of shipped files names: bare import specifiers and `'name/...'` string literals (resolved
 * paths), in each compiled file and in the source it was compiled from (whose type-only imports compile away).
 */
export function namedPackages(dir: string, files: Iterable<string>): Set<string> {
  const named = new Set<string>();
  const sources = [...files].flatMap((file) =>
    file.endsWith('.js') ? [file, file.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts')] : [file],
  );
  for (const file of sources) {
    if (!/\.(m?js|d\.ts|ts)$/.test(file) || !existsSync(join(dir, file))) continue;
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/['"]((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:\/[^'"]*)?['"]/g))
      named.add(m[1]!);
  }
  return named;
}
