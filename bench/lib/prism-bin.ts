import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Absolute path of Prism's CLI entry in node_modules, so no global install is ever needed. */
export function prismBinPath(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('@stoplight/prism-cli/package.json');
  const pkg = require(pkgPath) as { bin: { prism: string } };
  return fileURLToPath(new URL(pkg.bin.prism, `file://${pkgPath}`));
}
