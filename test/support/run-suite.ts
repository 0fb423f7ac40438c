// Test-only: runs `docproc conformance` as a CI job would (one child process running the installed entry,
// packages/docproc-kit/bin/docproc.js on the compiled dist/) and reads its report.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceReport } from '@docproc-kit/conformance/report/report.js';
import { docprocArgs } from './processes.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** What one run of the CLI produced. */
export interface SuiteRun {
  code: number | null;
  output: string;
  /** The --report JSON, when the run got that far. */
  report?: ConformanceReport;
  /** The --junit XML, when asked for. */
  junit?: string;
}

/**
 * Runs `docproc conformance <args>` with a report (and optionally JUnit) in a temp dir.
 * @example const run = await runSuite(['--base-url', url, '--api-key', key, '--only', 'list']);
 */
export async function runSuite(
  args: string[],
  {
    junit = false,
    env = {},
    timeoutMs = 120_000,
    onSpawn,
  }: { junit?: boolean; env?: NodeJS.ProcessEnv; timeoutMs?: number; onSpawn?: (pid: number) => void } = {},
): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  const reportPath = join(dir, 'report.json');
  const junitPath = join(dir, 'junit.xml');
  const extra = ['--report', reportPath, ...(junit ? ['--junit', junitPath] : [])];
  const child = spawn(process.execPath, docprocArgs(['conformance', ...args, ...extra]), {
    cwd: root,
    // A clean environment: DOCPROC_* variables of the shell running the tests must not leak in.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid !== undefined) onSpawn?.(child.pid);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  };
  const reportText = read(reportPath);
  const junitText = read(junitPath);
  rmSync(dir, { recursive: true, force: true });
  // Failed runs keep reproducer bodies for a human; a test's are expected, so they go.
  const runId = reportText ? (JSON.parse(reportText) as { runId?: string }).runId : undefined;
  if (runId) rmSync(join(tmpdir(), `docproc-conformance-${runId}`), { recursive: true, force: true });
  return {
    code,
    output,
    ...(reportText ? { report: JSON.parse(reportText) as ConformanceReport } : {}),
    ...(junitText ? { junit: junitText } : {}),
  };
}

/** The ids of the checks that failed in a run. */
export function failedChecks(run: SuiteRun): string[] {
  return (run.report?.checks ?? [])
    .filter((c) => c.outcome === 'failed')
    .map((c) => c.id)
    .sort();
}

/**
 * The arguments of a run with both keys and the deployment's limits, as the tests judging a whole target
 * give them (`--strict` unless `strict: false`): the full profile, every check.
 * @example const run = await runSuite(fullProfileArgs(url, { keys: ['k1', 'k2'], maxFileBytes: 65_536, requestTimeoutMs: 20_000 }));
 */
export function fullProfileArgs(
  baseUrl: string,
  {
    keys,
    maxFileBytes,
    requestTimeoutMs,
    strict = true,
  }: { keys: readonly string[]; maxFileBytes: number; requestTimeoutMs: number; strict?: boolean },
): string[] {
  return [
    ...['--base-url', baseUrl, '--api-key', keys[0]!, '--second-api-key', keys[1]!],
    ...['--max-files', '20', '--max-file-bytes', String(maxFileBytes), '--timeout-ms', String(requestTimeoutMs)],
    ...(strict ? ['--strict'] : []),
  ];
}

/** Every check of a run that did not pass, with what kept it from being exercised; a run with no report throws. */
export function checksNotPassed(run: SuiteRun): string[] {
  if (!run.report) throw new Error(`the run wrote no report:\n${run.output}`);
  return run.report.checks.filter((c) => c.outcome !== 'passed').map((c) => [`${c.id}: ${c.outcome}`, ...c.notExercised].join(' '));
}
