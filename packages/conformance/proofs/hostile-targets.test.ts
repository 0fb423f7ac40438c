import { readdirSync, readFileSync } from 'node:fs';
import { runSuite } from '@docproc-kit/test-support/run-suite.js';
import { describe, expect, it } from 'vitest';
import { GIB, type HostileKind, startHostileTarget } from './hostile-targets.js';

// The suite as a CI job runs it (the CLI process), against targets that answer what no service should.
// Each run must end within its deadline with a verdict and a written report, the suite's memory (the
// CLI's process and everything it started) staying under 1 GiB.
// Room for the CLI to start on a busy 2-core machine (the deadline counts from the start) and
// for a few requests of each scenario file.
const MAX_RUN_S = 60;

/** Resident memory of `pid` and every process under it, in bytes (0 once it is gone). */
function treeRss(pid: number): number {
  let rss = 0;
  try {
    rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    for (const task of readdirSync(`/proc/${pid}/task`))
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean))
        rss += treeRss(Number(child));
  } catch {
    // the process ended between two reads
  }
  return rss;
}

describe('a hostile target never takes the runner down', () => {
  it.each<[string, HostileKind]>([
    ['a 1 GiB body', 'huge-body'],
    ['an endless chunked body', 'endless-chunked'],
    ['a gzip bomb (1 GiB from about 1 MiB)', 'gzip-bomb'],
    ['a target that drips one byte a second', 'drip'],
  ])(
    '%s: the run ends within --max-run-s with a verdict and a report, its memory under 1 GiB',
    async (_, kind) => {
      const target = await startHostileTarget(kind);
      let peak = 0;
      let timer: NodeJS.Timeout | undefined;
      try {
        const started = Date.now();
        const run = await runSuite(
          [
            '--base-url',
            target.baseUrl,
            '--api-key',
            'k',
            '--max-run-s',
            String(MAX_RUN_S),
            '--request-timeout-ms',
            '10000',
            '--max-wait-s',
            '5',
          ],
          {
            timeoutMs: 200_000,
            onSpawn: (pid) => {
              timer = setInterval(() => {
                peak = Math.max(peak, treeRss(pid));
              }, 100);
            },
          },
        );
        const seconds = (Date.now() - started) / 1000;
        expect(run.report, run.output).toBeDefined();
        expect(run.report!.unattributed, run.output).toEqual([]);
        // The target was reached: never "cannot reach" it.
        expect(run.output).not.toMatch(/cannot reach/);
        const failed = run.report!.checks.filter((c) => c.outcome === 'failed').map((c) => c.id);
        if (kind === 'drip') {
          // No complete answer to the probe nor to the run's first requests: the target is taken for dead at
          // once (exit 2), not judged request by request until --max-run-s.
          expect(run.code, run.output).toBe(2);
          expect(run.report!.stopped, run.output).toMatchObject({
            reason: 'unavailable',
            message: expect.stringMatching(/^no complete answer from the target in 10 s/),
          });
          expect(failed, run.output).toEqual([]);
        } else {
          // Cut at the cap (response.bounded-body), or, for a body that arrives slower than the cap fills on a
          // busy machine, no complete answer in time (http.responds): a verdict either way, never a crash.
          expect(run.code, run.output).toBe(1);
          expect(
            failed.filter((id) => id !== 'http.responds'),
            run.output,
          ).toEqual(['response.bounded-body']);
        }
        expect(peak).toBeGreaterThan(0);
        expect(peak, `peak RSS ${Math.round(peak / 2 ** 20)} MiB`).toBeLessThan(GIB);
        // The deadline, plus starting and stopping the CLI on a busy machine.
        expect(seconds).toBeLessThan(MAX_RUN_S + 60);
        console.log(`${kind}: ${seconds.toFixed(1)} s, peak RSS ${Math.round(peak / 2 ** 20)} MiB`);
      } finally {
        clearInterval(timer);
        await target.close();
      }
    },
    220_000,
  );
});
