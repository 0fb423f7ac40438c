import type { SourceImport } from './import-graph.js';

/** What the layering test reads of a package's package.json. */
export interface Manifest {
  name: string;
  exports?: Record<string, unknown>;
}

/** The entry of `manifests` a specifier names, or why it names none; undefined for a specifier of no package here. */
export function entryOf(
  manifests: Manifest[],
  specifier: string,
): { pkg: string; key: string; installed: boolean } | { pkg: string; key: string; missing: true } | undefined {
  const manifest = manifests.find((m) => specifier === m.name || specifier.startsWith(`${m.name}/`));
  if (!manifest) return undefined;
  const key = specifier === manifest.name ? '.' : `.${specifier.slice(manifest.name.length)}`;
  // A pattern (`./*.js`) matches as Node matches it; only the private test support may still have one.
  const pattern = Object.keys(manifest.exports ?? {}).find((k) => {
    const [head, tail] = k.split('*');
    return tail !== undefined && key.startsWith(head!) && key.endsWith(tail) && key.length >= k.length - 1;
  });
  const target = manifest.exports?.[key] ?? (pattern && manifest.exports?.[pattern]);
  if (target === undefined) return { pkg: manifest.name, key, missing: true };
  // Installed, a package resolves with Node's default conditions; an entry mapped for `docproc-source` alone
  // resolves only inside this repository (its tests, proofs, benchmarks and scripts).
  const installed = typeof target === 'string' || (typeof target === 'object' && target !== null && 'default' in target);
  return { pkg: manifest.name, key, installed };
}

/**
 * The imports by name that the packages do not declare: an entry missing from the named package's `exports`,
 * or, from a shipped file (`shipped(file)`), an entry that resolves only inside this repository.
 */
export function undeclaredImports(imports: SourceImport[], manifests: Manifest[], shipped: (file: string) => boolean): string[] {
  return imports.flatMap(({ from, specifier }) => {
    const entry = entryOf(manifests, specifier);
    if (!entry) return [];
    if ('missing' in entry) return [`${from} imports ${specifier}: ${entry.pkg} declares no entry ${entry.key}`];
    if (!entry.installed && shipped(from))
      return [`${from} imports ${specifier}: ${entry.pkg}'s ${entry.key} resolves inside this repository only, not installed`];
    return [];
  });
}

/** The exports keys of a manifest that are patterns (`*`) instead of named entries. */
export const wildcardEntries = (manifest: Manifest): string[] => Object.keys(manifest.exports ?? {}).filter((key) => key.includes('*'));

/** Specifiers resolved at run time by name (`import.meta.resolve('x')`, `require.resolve('x')`) in a file's text. */
export const resolvedByName = (text: string): string[] =>
  [...text.matchAll(/\bresolve\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g)].map((m) => m[1]!);
