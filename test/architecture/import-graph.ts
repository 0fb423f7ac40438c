import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** One import of a source file, resolved where it is relative. */
export interface SourceImport {
  /** The importing file, relative to the repository's root. */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** The imported file relative to the root, for a relative specifier. */
  to?: string;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(=])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;
const SKIPPED = new Set(['node_modules', 'dist', 'fixtures', '.docproc']);

/** Every source file under `dir` (relative to `root`), tests included. */
export function sourceFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(join(root, at), { withFileTypes: true })) {
      if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
    }
  };
  walk(dir);
  return found.sort();
}

export const isTest = (file: string) => /\.test\.ts$/.test(file);

/** The imports of one file; comments are not read as imports. */
export function importsOf(root: string, file: string): SourceImport[] {
  const text = readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...text.matchAll(IMPORT)].map((m) => {
    const specifier = (m[1] ?? m[2] ?? m[3])!;
    if (!specifier.startsWith('.')) return { from: file, specifier };
    const target = resolve(join(root, dirname(file)), specifier);
    const candidates = [target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), target];
    const to = candidates.find((c) => existsSync(c)) ?? target;
    return { from: file, specifier, to: relative(root, to) };
  });
}

/**
 * The folder-to-folder edges of a tree: an import from `a/b/x.ts` to `a/c/y.ts` is the edge `b -> c` inside
 * `a` (the folders just below the nearest folder the two files share). Files directly in the shared folder
 * make no edge: a folder's own files are its entry points.
 */
export function folderEdges(imports: SourceImport[]): Map<string, Map<string, Set<string>>> {
  const byParent = new Map<string, Map<string, Set<string>>>();
  for (const { from, to } of imports) {
    if (!to) continue;
    const a = from.split(sep);
    const b = to.split(sep);
    let i = 0;
    while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++;
    if (i >= a.length - 1 || i >= b.length - 1) continue;
    const parent = a.slice(0, i).join('/') || '.';
    const edges = byParent.get(parent) ?? new Map<string, Set<string>>();
    const out = edges.get(a[i]!) ?? new Set<string>();
    out.add(b[i]!);
    edges.set(a[i]!, out);
    byParent.set(parent, edges);
  }
  return byParent;
}

/** The cycles of a directed graph, each as its folders in order (empty when there are none). */
export function cycles(edges: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}
