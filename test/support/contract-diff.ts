// Test-only: runs `docproc contract diff <args>` as a user or CI does (the installed entry on the compiled dist/).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { docprocArgs } from './processes.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What one run of `docproc contract diff` printed, and its exit code. */
export interface ContractDiffRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `docproc contract diff <args>` from the repository root; killed after `timeoutMs`.
 * @example const run = await runContractDiff(['base.yaml', 'head.yaml', '--format', 'json']);
 */
export async function runContractDiff(args: string[], { timeoutMs = 90_000 }: { timeoutMs?: number } = {}): Promise<ContractDiffRun> {
  const child = spawn(process.execPath, docprocArgs(['contract', 'diff', ...args]), {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
