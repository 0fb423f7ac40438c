import { startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { failedChecks, fullProfileArgs, runSuite } from '@docproc-kit/test-support/run-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOISY_TEXT, noisyDocuments } from '../proofs/mutant-behaviours.js';

// What a user sees when a server written elsewhere fails badly: the suite must still print every failure
// once, quickly, and say plainly when the target went away. Real CLI process, real reference server
// behind a proxy that breaks it.
const KEYS = ['output-key', 'output-second-key'];
let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ apiKeys: KEYS, maxFiles: 20, maxFileBytes: 65_536, processingDelayMs: 200 });
});
afterAll(() => server?.close());

const args = (baseUrl: string) => fullProfileArgs(baseUrl, { keys: KEYS, maxFileBytes: 65_536, requestTimeoutMs: 20_000, strict: false });

describe('a failing run prints in time linear in its size', () => {
  it('every document body failing with ~4 KB of quotes: each failed check printed once, capped, within seconds of the last request', async () => {
    const proxy = await startMutationProxy(server.baseUrl, { response: noisyDocuments });
    try {
      const run = await runSuite(args(proxy.baseUrl), { timeoutMs: 300_000 });
      const exitedAt = Date.now();
      expect(run.code, run.output).toBe(1);
      const failures = run.report!.checks.flatMap((c) => c.failures);
      expect(failures.length, run.output).toBeGreaterThanOrEqual(40);
      // Every failure is a named check: odd bodies never crash the suite.
      expect(run.report!.unattributed, run.output).toEqual([]);
      // Printing and shutting down after the report was built (the last request is before that) takes seconds, not minutes.
      expect(exitedAt - Date.parse(run.report!.finishedAt)).toBeLessThan(20_000);
      // Each failed check is printed once, however many tests it failed in.
      const printed = [...run.output.matchAll(/^✗ \[([a-z.-]+)\]/gm)].map((m) => m[1]);
      expect(printed.sort()).toEqual(failedChecks(run));
      // The console caps bodies; the JSON report keeps them whole.
      expect(run.output).toContain('characters; all of it in --report');
      expect(run.output).not.toContain(NOISY_TEXT);
      expect(failures.some((f) => `${f.received}${f.note ?? ''}`.includes(JSON.stringify(NOISY_TEXT).slice(1, -1)))).toBe(true);
      // Reproducers keep their request bodies beside the report and name them relative to its folder, so a
      // CI artifact of that folder replays as is.
      expect(failures.find((f) => f.curl?.includes('-F '))?.curl).toMatch(/ 'files\[\]=@docproc-conformance-[\w-]+\/bodies\//);
      expect(run.output).toMatch(/run its reproducers \(curl\) in \/\S+\/conformance-run-\w+: they read request bodies from there/);
    } finally {
      await proxy.close();
    }
  }, 300_000);

  it('a target that stops answering mid-run is said once, naming the request, and what follows is collapsed', async () => {
    let requests = 0;
    const proxy = await startMutationProxy(server.baseUrl, {
      respond: (request, upstream) => {
        // The preflight and the first scenarios are answered; then the server goes away for good.
        if (++requests <= 40) return upstream(request);
        void proxy.close();
        return new Promise(() => {});
      },
    });
    const run = await runSuite(args(proxy.baseUrl), { timeoutMs: 300_000 });
    expect(run.code, run.output).toBe(1);
    // The request is named by its X-Request-Id: the suite's own, one the oracle sends at the header's limits,
    // or none, when it was one of the oracle's requests without one ("at a request").
    expect(run.output.match(/Target stopped responding at (request \S.*|a request) \((GET|POST) http/g), run.output).toHaveLength(1);
    expect(run.output).toMatch(/\d+ later request\(s\) got no response either/);
    expect(run.output.match(/^✗ \[http\.responds\]/gm) ?? [], 'no http.responds block beyond the first').toHaveLength(1);
    expect(run.report!.checks.find((c) => c.id === 'http.responds')!.failures.length).toBeGreaterThan(1);
    expect(run.report!.unattributed, run.output).toEqual([]);
  }, 300_000);
});
