import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What one wrk run measured. */
export interface WrkResult {
  requestsPerSec: number;
  p99Ms: number;
  /** Non-2xx/3xx answers, plus socket errors (connect, read, write, timeout). */
  errors: number;
}

/** Whether wrk (Debian's `wrk` package) is on the PATH. */
export const hasWrk = (): boolean => spawnSync('wrk', ['--version']).error === undefined;

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

/**
 * Loads one URL with wrk (one thread, a C load generator that leaves the other core to the server) and
 * parses requests/s, the 99th latency percentile and the errors from its `--latency` report.
 * @example await wrk('http://127.0.0.1:4010/api/v1/documents/get_documents', { 'x-api-key': 'k' }, { connections: 50, seconds: 5 });
 */
export async function wrk(
  url: string,
  headers: Record<string, string>,
  { connections, seconds }: { connections: number; seconds: number },
): Promise<WrkResult> {
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const { stdout } = await run('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '--latency', ...headerArgs, url], {
    timeout: (seconds + 30) * 1000,
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s|m)/.exec(stdout);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const errors = non2xx + (socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0);
  return { requestsPerSec: rps, p99Ms: p99 ? toMs(p99[1]!, p99[2]!) : NaN, errors };
}
