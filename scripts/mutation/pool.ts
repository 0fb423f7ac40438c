// The worker processes of a mutation run (worker.ts): each started once with the sandbox hook, asked one
// thing at a time, and ended and started again when a question outlives its bound (a mutant that loops
// without yielding never answers: it counts as a timeout, which Stryker also counts as killed) or when a
// mutant needs a process of its own.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WorkerReply, WorkerRequest } from './worker.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
/**
 * Where the workers' own output goes: a mutant that breaks the core's error handling can log a line a
 * second for the rest of its run, which would bury the run's progress.
 */
export const WORKERS_LOG = `${root}reports/mutation/workers.log`;
let log: number | undefined;
const EXEC_ARGV = ['--conditions=docproc-source', '--import', 'tsx', '--import', './scripts/mutation/register-sandbox.mjs'];

/** A worker process, asked one thing at a time. */
export interface Worker {
  ask(request: WorkerRequest, timeoutMs: number): Promise<WorkerReply | 'timeout'>;
  close(): void;
}

/** Starts a worker on the instrumented core in `sandbox`; `activeMutant` switches one mutant on before any module loads. */
export async function startWorker(sandbox: string, activeMutant?: string): Promise<Worker> {
  const env: NodeJS.ProcessEnv = { ...process.env, DOCPROC_MUTATION_SANDBOX: sandbox };
  if (activeMutant === undefined) delete env.__STRYKER_ACTIVE_MUTANT__;
  else env.__STRYKER_ACTIVE_MUTANT__ = activeMutant;
  if (log === undefined) {
    mkdirSync(`${root}reports/mutation/`, { recursive: true });
    log = openSync(WORKERS_LOG, 'w');
  }
  const child: ChildProcess = fork(WORKER, [], { cwd: root, env, execArgv: EXEC_ARGV, stdio: ['ignore', log, log, 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the mutation worker exited (${code}) before it was ready`)));
  });
  return {
    ask(request, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          cleanup();
          resolve('timeout');
        }, timeoutMs);
        const onMessage = (reply: WorkerReply) => {
          cleanup();
          resolve(reply);
        };
        const onExit = (code: number | null) => {
          cleanup();
          reject(new Error(`the mutation worker exited (${code}) while judging`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          child.off('message', onMessage);
          child.off('exit', onExit);
        };
        child.on('message', onMessage);
        child.on('exit', onExit);
        child.send(request);
      });
    },
    close() {
      child.kill('SIGKILL');
    },
  };
}
