// Test-only: a service run as a child process that prints its URL on its first line of output.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A started child service. */
export interface ChildService {
  baseUrl: string;
  /** SIGTERM, then SIGKILL after 5 s. */
  close(): Promise<void>;
}

/**
 * Runs `node <args>` in `cwd` with `env` (PATH and HOME added) and resolves with the URL it prints first;
 * rejects, naming `what` and its last stderr, if it exits first or prints nothing within `startMs`.
 * @example const service = await startChildService({ what: 'the clean-room service', args: ['serve.ts'], cwd, startMs: 30_000 });
 */
export async function startChildService({
  what,
  args,
  cwd,
  env = {},
  startMs,
}: {
  what: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  startMs: number;
}): Promise<ChildService> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${startMs} ms:\n${errors}`)), startMs);
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before serving:\n${errors}`));
    });
  }).catch(async (error) => {
    await close();
    throw error;
  });
  return { baseUrl, close };
}
