import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The package root is the nearest folder above this file that holds the contract: src/ under tsx and
// vitest, dist/src/ once compiled, so the depth differs and is found rather than assumed.
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'openapi', 'openapi.yaml')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`docproc-kit: no openapi/openapi.yaml above ${from}`);
  }
}

/** Absolute path of the package's root folder (with a trailing separator). */
export const packageRoot = `${findPackageRoot(dirname(fileURLToPath(import.meta.url)))}/`;

/** Absolute path of the bundled contract, the same file from src/ (tsx) and from dist/ (compiled). */
export const bundledSpecPath = join(packageRoot, 'openapi', 'openapi.yaml');

/** Absolute path of Prism's CLI entry in node_modules, so no global install is ever needed. */
export function prismBinPath(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('@stoplight/prism-cli/package.json');
  const pkg = require(pkgPath) as { bin: { prism: string } };
  return fileURLToPath(new URL(pkg.bin.prism, `file://${pkgPath}`));
}
