// Vitest global setup: rebuilds dist/ when src/ or conformance/run/ changed since the last build, so the tests that start the
// CLI as a process run the compiled code an installed kit runs (bin/docproc.js), and never stale code.
// Compiled, each process starts about a CPU-second sooner than through tsx's loader. `npm start` and the
// other npm scripts keep running src/ through tsx; a test in serve.test.ts starts the server that way.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

// What `npm run build` compiles (tsconfig.build.json): src/ and the suite's runner, conformance/run/.
const BUILT_DIRS = ['src', 'conformance/run'];

function newestInput(root: string): number {
  const sources = BUILT_DIRS.filter((dir) => existsSync(join(root, dir))).flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => !file.endsWith('.test.ts'))
      .map((file) => join(root, dir, file)),
  );
  const configs = ['tsconfig.json', 'tsconfig.build.json'].map((file) => join(root, file));
  return Math.max(...[...sources, ...configs].map((path) => statSync(path).mtimeMs));
}

/**
 * Whether `root`'s dist/ holds a build of its current src/. A failed build leaves dist/src/cli.js as it was
 * (tsconfig.build.json sets noEmitOnError), so its time is that of the last build that succeeded.
 * @example if (!distIsFresh(repoRoot)) execFileSync('npm', ['run', 'build']);
 */
export function distIsFresh(root: string = repoRoot): boolean {
  const built = statSync(join(root, 'dist/src/cli.js'), { throwIfNoEntry: false });
  return built !== undefined && built.mtimeMs >= newestInput(root);
}

/** Runs `npm run build` unless dist/ is fresh. */
export default function setup(): void {
  if (distIsFresh()) return;
  console.log('Building dist/ (src/ changed since the last build): the tests run the CLI compiled, as installed.');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: repoRoot, stdio: 'inherit', timeout: 180_000 });
}
