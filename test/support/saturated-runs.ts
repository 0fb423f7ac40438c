// Consecutive full runs of `docproc conformance` against the reference server behind nginx (the shipped
// deploy/nginx.conf, balancing request by request), while CPU-bound processes saturate the cores: a verdict
// must not depend on how busy the runner is. scripts/saturated-runs.ts prints a measurement of ten runs;
// test/deployed/saturated.test.ts makes three and requires every one to pass.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import buildIfStale from './fresh-build.js';
import { type Balancer, startNginx } from './nginx.js';
import { type RunningCli, startCli } from './processes.js';
import { checksNotPassed, runSuite } from './run-suite.js';

const KEYS = ['saturated-key', 'saturated-second-key'];
const MAX_FILE_BYTES = '65536';

/** One suite run: its exit code, how long it took, and what did not pass. */
export interface SaturatedRun {
  code: number | null;
  seconds: number;
  passed: number;
  warned: number;
  /** Every check that neither passed nor only warned, with why (empty on exit 0). */
  notPassed: string[];
  /** The 1-minute load average when the run ended. */
  load: number;
  output: string;
}

/** What {@link runSaturated} did. */
export interface SaturatedResult {
  runs: SaturatedRun[];
  burners: number;
  cores: number;
  command: string;
}

/** Options of {@link runSaturated}. */
export interface SaturatedOptions {
  runs?: number;
  /** Busy-loop processes started beside the runs (default: 2, one per core of the development machine). */
  burners?: number;
  /** How long one suite run may take before it is killed (default: its own --max-run-s, 600 s, plus a minute). */
  runTimeoutMs?: number;
  /** Called after each run. */
  onRun?: (run: SaturatedRun, index: number) => void;
}

/** A process that keeps one core busy until killed. */
function startBurner(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/**
 * Starts `docproc serve` (from dist/, its own defaults but the two keys, the test limits and no per-address
 * connection cap, as deploy/nginx.conf asks of replicas) behind nginx with the shipped config, then `burners`
 * busy loops, and runs the full profile `runs` times one after the other through nginx, as a CI job would
 * (no --strict: what nginx answers itself is a warning). Everything it started is stopped before it returns.
 * @example const { runs } = await runSaturated({ runs: 3 }); runs.every((r) => r.code === 0);
 */
export async function runSaturated({
  runs: count = 10,
  burners: burnerCount = 2,
  runTimeoutMs = 660_000,
  onRun,
}: SaturatedOptions = {}): Promise<SaturatedResult> {
  buildIfStale();
  const dataDir = await mkdtemp(join(tmpdir(), 'docproc-saturated-'));
  const burners: ChildProcess[] = [];
  let server: RunningCli | undefined;
  let nginx: Balancer | undefined;
  // A Ctrl-C of the script must not leave busy loops behind.
  const onSignal = () => {
    for (const b of burners) b.kill('SIGKILL');
    server?.child.kill('SIGKILL');
    void nginx?.stop();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  try {
    server = await startCli(
      [
        'serve',
        '--data-dir',
        dataDir,
        ...KEYS.flatMap((k) => ['--api-key', k]),
        ...['--max-files', '20', '--max-file-bytes', MAX_FILE_BYTES, '--max-connections-per-address', '0'],
      ],
      { readyPath: '/openapi.json', timeoutMs: 60_000 },
    );
    nginx = await startNginx([`127.0.0.1:${server.port}`]);
    const args = [
      ...['--base-url', nginx.baseUrl, '--api-key', KEYS[0]!, '--second-api-key', KEYS[1]!, '--profile', 'full'],
      ...['--max-files', '20', '--max-file-bytes', MAX_FILE_BYTES],
    ];
    for (let i = 0; i < burnerCount; i++) burners.push(startBurner());
    const runs: SaturatedRun[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const run = await runSuite(args, { timeoutMs: runTimeoutMs });
      const outcomes = run.report?.summary;
      const result: SaturatedRun = {
        code: run.code,
        seconds: (performance.now() - started) / 1000,
        passed: outcomes?.passed ?? 0,
        warned: outcomes?.warned ?? 0,
        notPassed: run.report ? checksNotPassed(run).filter((c) => !/: warned/.test(c)) : ['no report written'],
        load: loadAverage(),
        output: run.output,
      };
      runs.push(result);
      onRun?.(result, i);
    }
    const shown = args.map((a) => (KEYS.includes(a) ? '<key>' : a.startsWith('http://') ? '<nginx>' : a));
    return { runs, burners: burnerCount, cores: availableParallelism(), command: `docproc conformance ${shown.join(' ')}` };
  } finally {
    process.removeListener('SIGINT', onSignal);
    await Promise.all(burners.map(stopProcess));
    await nginx?.stop();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
