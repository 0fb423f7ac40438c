// Vitest global setup: rebuilds the packages' dist/ when a package's src/ changed since the last build, so the tests
// that start the CLI as a process run the compiled code an installed kit runs (bin/docproc.js), and never stale code.
// Compiled, each process starts about a CPU-second sooner than through tsx's loader. `npm start` and the
// other npm scripts keep running src/ through tsx; a test in serve.test.ts starts the server that way.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

// What `npm run build` compiles: each package's src/ (its tsconfig.build.json), the CLI's package last.
const BUILT_MARK = 'packages/docproc-kit/dist/cli.js';

function newestInput(root: string): number {
  const packages = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name));
  const sources = packages
    .filter((dir) => existsSync(join(dir, 'src')))
    .flatMap((dir) =>
      readdirSync(join(dir, 'src'), { recursive: true, encoding: 'utf8' })
        .filter((file) => !file.endsWith('.test.ts'))
        .map((file) => join(dir, 'src', file)),
    );
  const configs = [join(root, 'tsconfig.json'), ...packages.map((dir) => join(dir, 'tsconfig.build.json')).filter((f) => existsSync(f))];
  return Math.max(...[...sources, ...configs].map((path) => statSync(path).mtimeMs));
}

/**
 * Whether `root`'s packages hold a build of their current src/. A failed build leaves the CLI's dist/cli.js as
 * it was (the builds set noEmitOnError, and the CLI's package is built last), so its time is that of the last
 * build that succeeded.
 * @example if (!distIsFresh(repoRoot)) execFileSync('npm', ['run', 'build']);
 */
export function distIsFresh(root: string = repoRoot): boolean {
  const built = statSync(join(root, BUILT_MARK), { throwIfNoEntry: false });
  return built !== undefined && built.mtimeMs >= newestInput(root);
}

/** Runs `npm run build` unless dist/ is fresh. */
export default function setup(): void {
  if (distIsFresh()) return;
  console.log('Building the packages (a src/ changed since the last build): the tests run the CLI compiled, as installed.');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: repoRoot, stdio: 'inherit', timeout: 300_000 });
}
