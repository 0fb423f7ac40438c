import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';

const root = fileURLToPath(new URL('../../', import.meta.url));
const builtCli = fileURLToPath(new URL('../../packages/docproc-kit/bin/docproc.js', import.meta.url));

/**
 * Node's arguments for `docproc <args>` as an installed kit runs it: bin/docproc.js on the compiled dist/,
 * which the tests' global setup (fresh-build.ts) rebuilds whenever src/ changed.
 * @example spawnSync(process.execPath, docprocArgs(['serve', '--help']), { cwd: repoRoot });
 */
export function docprocArgs(args: string[]): string[] {
  return [builtCli, ...args];
}

/** A child process of the CLI that listens on a port, with its output kept for failure messages. */
export interface RunningCli {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** Options of {@link startCli}. */
export interface StartCliOptions {
  /** A path that answers (any status) once the process is ready. */
  readyPath?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** `dist` (default) runs bin/docproc.js, as installed; `src` runs src/cli.ts through tsx, as `npm start` does. */
  entry?: 'src' | 'dist';
  /** A fixed port instead of a free one (e.g. to restart on the same port). */
  port?: number;
}

/**
 * Starts `docproc <args>` on a free port and resolves once `readyPath` answers at all.
 * @example const mock = await startCli(['mock'], { readyPath: '/api/v1/documents/get_documents' });
 */
export async function startCli(
  args: string[],
  { readyPath = '/', env = {}, timeoutMs = 30_000, entry = 'dist', port: fixedPort }: StartCliOptions = {},
): Promise<RunningCli> {
  const port = fixedPort ?? (await getPort({ host: '127.0.0.1' }));
  // `--import tsx` keeps it one process (the tsx CLI would add a parent), so signals such as a
  // test's SIGKILL reach the server itself.
  const command =
    entry === 'src' ? ['--conditions=docproc-source', '--import', 'tsx', 'packages/docproc-kit/src/cli.ts', ...args] : docprocArgs(args);
  const child = spawn(process.execPath, [...command, '--port', String(port)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`docproc ${args.join(' ')} exited early:\n${output}`);
    try {
      await fetch(baseUrl + readyPath, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`docproc ${args.join(' ')} did not answer within ${timeoutMs} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    baseUrl,
    port,
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
