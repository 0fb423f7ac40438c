// Test-only: a few suite-runner processes and a queue in front of them.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import type { SuiteRun } from '@docproc-kit/test-support/run-suite.js';
import type { ConformanceOptions } from '../src/definitions/config.js';
import type { ConformanceReport } from '../src/report/report.js';
import type { RunnerReply, RunnerRequest } from './suite-runner.js';

const entry = fileURLToPath(new URL('./suite-runner.ts', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Options of one run: the target and key, plus whatever the run is about. */
export type RunOptions = Pick<ConformanceOptions, 'baseUrl' | 'apiKey'> & Partial<ConformanceOptions>;

/**
 * Starts `size` runners; `run` queues a suite run on the next free one.
 * @example const pool = createRunnerPool(2); const run = await pool.run({ baseUrl, apiKey, only: ['list'] }); await pool.close();
 */
export function createRunnerPool(size: number): { run(options: RunOptions): Promise<SuiteRun>; close(): Promise<void> } {
  const idle: ChildProcess[] = [];
  const all: ChildProcess[] = [];
  const waiting: Array<(runner: ChildProcess) => void> = [];
  let next = 0;
  for (let i = 0; i < size; i++) {
    const child = fork(entry, [], {
      cwd: root,
      execArgv: ['--conditions=docproc-source', '--import', 'tsx'],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    all.push(child);
    idle.push(child);
  }
  const acquire = () => new Promise<ChildProcess>((resolve) => (idle.length ? resolve(idle.pop()!) : waiting.push(resolve)));
  const release = (runner: ChildProcess) => {
    const waiter = waiting.shift();
    if (waiter) waiter(runner);
    else idle.push(runner);
  };
  return {
    async run(options) {
      const runner = await acquire();
      try {
        const id = ++next;
        const full: ConformanceOptions = {
          profile: 'full',
          spec: bundledSpecPath,
          timeoutMs: 20_000,
          requestTimeoutMs: 30_000,
          strict: false,
          // The pool runs `size` suites side by side already: one scenario file at a time each saves a
          // worker's start-up per run, and keeps the busy machine from running 2 x 2 files at once.
          workers: 1,
          ...options,
        };
        const reply = await new Promise<RunnerReply>((resolve, reject) => {
          const onMessage = (m: RunnerReply) => {
            if (m.id !== id) return;
            runner.off('exit', onExit);
            runner.off('message', onMessage);
            resolve(m);
          };
          const onExit = (code: number | null) => reject(new Error(`suite runner exited (${code}) during run ${id}`));
          runner.on('message', onMessage);
          runner.once('exit', onExit);
          runner.send({ id, options: full } satisfies RunnerRequest);
        });
        return {
          code: reply.code,
          output: reply.output,
          ...(reply.report ? { report: JSON.parse(reply.report) as ConformanceReport } : {}),
        };
      } finally {
        release(runner);
      }
    },
    async close() {
      const stop = (child: ChildProcess) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill();
        });
      await Promise.all(all.map(stop));
    },
  };
}
