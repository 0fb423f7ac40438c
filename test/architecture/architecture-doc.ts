import { entryOf, type Manifest } from './declared-entries.js';

/** One part of docs/architecture.md whose names are relative to one folder: a package's, or the repository's. */
export interface DocPart {
  /** The folder its names are relative to, from the repository's root ('' for the root itself). */
  base: string;
  /** Its table rows: the folder (or file) the row describes, and the names the row gives in backticks. */
  rows: { folder: string; names: string[] }[];
  /** The names its prose gives in backticks, outside the tables. */
  prose: string[];
}

/** What the test reads of the repository: its files (tracked, and new ones not ignored) and the workspaces' manifests. */
export interface Tree {
  files: string[];
  /** A path outside `files` that is there all the same (built output: dist/, the kit's openapi.yaml). */
  present: (path: string) => boolean;
  manifests: (Manifest & { dir: string })[];
}

const fences = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');
const ticked = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/**
 * The parts of the document: the top (the package table and the prose around it), each `### \`packages/x/\``
 * section, and `## Outside the packages`.
 */
export function partsOf(markdown: string): DocPart[] {
  const parts: DocPart[] = [];
  let part: DocPart = { base: '', rows: [], prose: [] };
  parts.push(part);
  for (const line of fences(markdown).split('\n')) {
    const pkg = line.match(/^###\s+`(packages\/[^/`]+)\/`/);
    if (pkg || /^##\s+Outside the packages/.test(line)) {
      part = { base: pkg ? pkg[1]! : '', rows: [], prose: [] };
      parts.push(part);
      continue;
    }
    const cells = line.startsWith('|') ? line.split(/\s\|\s|^\|\s*|\s*\|$/).filter((c) => c !== '') : [];
    const folder = cells[0]?.match(/^\[?`([^`]+)`/)?.[1];
    if (folder) part.rows.push({ folder, names: cells.slice(1).flatMap(ticked) });
    else part.prose.push(...ticked(line));
  }
  return parts;
}

const PATH = /\/|\.(?:ts|js|mjs|json|ya?ml|md|sh|conf)$/;
/** A name in backticks that names a place of the tree: a path, not a URL path, a pattern of exports, a flag or a phrase. */
const isPath = (name: string) => PATH.test(name) && !/\s/.test(name) && !/^(?:\.?\/|[a-z]+:|--)/.test(name);

const parentsOf = (dir: string, stop: string): string[] => {
  const found = [dir];
  for (let at = dir; at !== stop && at !== ''; ) {
    at = at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : '';
    found.push(at);
  }
  return found;
};
const join = (...parts: string[]) => parts.filter((p) => p !== '').join('/');
const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(?:/|$)`);

/**
 * Whether a path the document names is in the tree: relative to the row's folder or one of its parents (up to
 * the part's base, and its `src/`), to the root, or, for a bare file name, anywhere below the row's folder. At the
 * root, a name can be what every package has (`src/`, `dist/`).
 */
function resolves(tree: Tree, name: string, at: string, base: string): boolean {
  const bare = name.replace(/\/$/, '');
  const packages = base === '' ? tree.manifests.map((m) => m.dir) : [];
  const candidates = [...parentsOf(at, base), join(base, 'src'), '', ...packages].map((dir) => join(dir, bare));
  const inTree = (path: string) => {
    const re = glob(path);
    return tree.files.some((f) => re.test(f)) || (!path.includes('*') && tree.present(path));
  };
  if (candidates.some(inTree)) return true;
  return !bare.includes('/') && tree.files.some((f) => f.startsWith(`${at}/`) && glob(bare).test(f.split('/').pop()!));
}

/** The package a specifier in backticks names (`@docproc-kit/x/y.js`, `docproc-kit/client`), if any. */
const packageOf = (tree: Tree, name: string) => tree.manifests.find((m) => name === m.name || name.startsWith(`${m.name}/`));

/** What the document names that the tree does not have: folders and files, and entries no package declares. */
export function namedButMissing(parts: DocPart[], tree: Tree): string[] {
  const missing: string[] = [];
  for (const { base, rows, prose } of parts) {
    const check = (name: string, at: string) => {
      if (packageOf(tree, name)) {
        if (name !== packageOf(tree, name)!.name && 'missing' in (entryOf(tree.manifests, name) ?? {}))
          missing.push(`\`${name}\`: no such declared entry`);
      } else if (isPath(name) && !resolves(tree, name, at, base)) missing.push(`\`${name}\` (${at || 'the root'}): no such file or folder`);
    };
    for (const { folder, names } of rows) {
      const at = join(base, folder.replace(/\/$/, ''));
      if (!resolves(tree, folder, base, base)) missing.push(`row \`${folder}\` (${base || 'the root'}): no such file or folder`);
      for (const name of names) check(name, at);
    }
    for (const name of prose) check(name, base);
  }
  return missing;
}

/** Folders directly under `dir` that hold a file of the tree. */
const foldersOf = (tree: Tree, dir: string): string[] => [
  ...new Set(
    tree.files
      .filter((f) => f.startsWith(`${dir}/`))
      .map((f) => f.slice(dir.length + 1).split('/'))
      .filter((p) => p.length > 1)
      .map((p) => p[0]!),
  ),
];

/**
 * What the tree has that the document does not describe: a package without its section, a folder of a
 * package (or of its `src/`) without its row, a folder of the repository (or of test/, bench/, scripts/)
 * without its row or a mention in it, and an installed entry a package declares that its section does not name
 * (by its specifier or its source file).
 */
export function presentButUndescribed(parts: DocPart[], tree: Tree): string[] {
  const undescribed: string[] = [];
  const [top, ...sections] = parts;
  const outside = sections.find((s) => s.base === '');
  const rowFor = (part: DocPart | undefined, folder: string) =>
    part?.rows.some((r) => r.folder.replace(/\/$/, '') === folder || r.folder.startsWith(`${folder}/`));
  const everywhere = new Set(parts.flatMap((p) => [...p.prose, ...p.rows.flatMap((r) => [r.folder, ...r.names])]));

  for (const pkg of foldersOf(tree, 'packages').sort()) {
    const dir = `packages/${pkg}`;
    const section = sections.find((s) => s.base === dir);
    if (!top?.rows.some((r) => r.folder === `${dir}/`)) undescribed.push(`${dir}: not in the table of packages`);
    if (!section) {
      undescribed.push(`${dir}: no section`);
      continue;
    }
    for (const folder of foldersOf(tree, dir).filter((f) => f !== 'src')) {
      if (!rowFor(section, folder)) undescribed.push(`${dir}/${folder}/: no row`);
    }
    for (const folder of foldersOf(tree, `${dir}/src`)) {
      if (!rowFor(section, `src/${folder}`)) undescribed.push(`${dir}/src/${folder}/: no row`);
    }
    const names = new Set([...section.prose, ...section.rows.flatMap((r) => [r.folder, ...r.names])]);
    const manifest = tree.manifests.find((m) => m.dir === dir);
    for (const [key, target] of Object.entries(manifest?.exports ?? {})) {
      if (key === './package.json') continue;
      const specifier = key === '.' ? manifest!.name : `${manifest!.name}${key.slice(1)}`;
      const entry = entryOf(tree.manifests, specifier);
      // An entry for this repository's tests and scripts alone is no part of what a user can import.
      if (!entry || !('installed' in entry) || !entry.installed || everywhere.has(specifier)) continue;
      const source = typeof target === 'string' ? target : (target as Record<string, string>)['docproc-source'];
      const file = (source ?? '').replace(/^\.\//, '');
      const segments = file.split('/');
      // A data file (a fixture, a document) is described by its folder's row; a module by its own name.
      const suffixes = segments.map((_, i) => segments.slice(i).join('/'));
      const byFolder = !/\.(ts|js)$/.test(file) && segments.length > 1 && rowFor(section, segments[0]!);
      if (!byFolder && !suffixes.some((s) => names.has(s) && s !== 'index.ts'))
        undescribed.push(`${specifier} (${dir}/${file}): a declared entry its section does not name`);
    }
  }

  for (const folder of foldersOf(tree, '').filter((f) => f !== 'packages')) {
    if (!rowFor(outside, folder)) undescribed.push(`${folder}/: no row in Outside the packages`);
  }
  for (const folder of ['test', 'bench', 'scripts']) {
    const row = outside?.rows.find((r) => r.folder === `${folder}/`);
    for (const sub of foldersOf(tree, folder)) {
      if (!row?.names.some((n) => n === `${sub}/` || n.startsWith(`${folder}/${sub}/`) || n.startsWith(`${sub}/`)))
        undescribed.push(`${folder}/${sub}/: not named in the ${folder}/ row`);
    }
  }
  return undescribed;
}
