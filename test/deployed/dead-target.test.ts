import { startHostileTarget } from '@docproc-kit/conformance/proofs/hostile-targets.js';
import { runSuite } from '@docproc-kit/test-support/run-suite.js';
import { describe, expect, it } from 'vitest';

// A hung backend behind a gateway that keeps the connection open: every answer drips a byte a second, so
// no request ever gets a complete one. The suite run as a CI job runs it, every option at its default
// (--request-timeout-ms 30000, --max-run-s 600).
describe('a target that never finishes an answer', () => {
  it('gets its verdict in minutes, not at --max-run-s: exit 2, "no complete answer", and a report', async () => {
    const target = await startHostileTarget('drip');
    try {
      const started = Date.now();
      const run = await runSuite(['--base-url', target.baseUrl, '--api-key', 'k'], { timeoutMs: 240_000 });
      const seconds = (Date.now() - started) / 1000;
      expect(run.code, run.output).toBe(2);
      expect(run.output).toMatch(/^docproc conformance: no complete answer from the target in 30 s/m);
      expect(run.output).toContain('UNAVAILABLE (target unavailable: exit 2)');
      expect(run.report?.stopped, run.output).toMatchObject({ reason: 'unavailable', message: expect.stringMatching(/in 30 s/) });
      // Never judged a failure of the service: it was never heard from.
      expect(run.report!.checks.filter((c) => c.outcome === 'failed').map((c) => c.id)).toEqual([]);
      expect(seconds).toBeLessThan(180);
      console.log(`dripping target, default run: exit 2 in ${seconds.toFixed(1)} s`);
    } finally {
      await target.close();
    }
  }, 260_000);

  // A backend whose database hangs behind a healthy gateway: the CLI's probe gets a valid list page, every
  // later request drips a byte a second.
  it('that answered the probe gets its verdict in minutes too: exit 2, the last request answered named, and a report', async () => {
    const target = await startHostileTarget('hang-after-probe');
    try {
      const started = Date.now();
      const run = await runSuite(['--base-url', target.baseUrl, '--api-key', 'k'], { timeoutMs: 230_000 });
      const seconds = (Date.now() - started) / 1000;
      expect(run.code, run.output).toBe(2);
      expect(run.output).toMatch(
        /^docproc conformance: no complete answer from the target in 30 s: 5 requests in a row got none .*the last request answered was GET \/api\/v1\/documents\/get_documents at /m,
      );
      expect(run.output).toContain('UNAVAILABLE (target unavailable: exit 2)');
      expect(run.report?.stopped, run.output).toMatchObject({
        reason: 'unavailable',
        lastAnswered: { request: 'GET /api/v1/documents/get_documents', at: expect.any(Number) },
      });
      expect(seconds).toBeLessThan(180);
      console.log(`target hung after its probe, default run: exit 2 in ${seconds.toFixed(1)} s`);
    } finally {
      await target.close();
    }
  }, 240_000);
});
