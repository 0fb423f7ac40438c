import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { runSuite, type SuiteRun } from '@docproc-kit/test-support/run-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Prism's mock of the bundled contract, started the way a frontend team starts it: `docproc mock`.
let mock: RunningCli;
let run: SuiteRun;
beforeAll(async () => {
  mock = await startCli(['mock'], { readyPath: '/api/v1/documents/get_documents' });
  run = await runSuite(['--base-url', mock.baseUrl, '--api-key', 'any-key-works-with-prism', '--profile', 'contract']);
}, 180_000);
afterAll(() => mock?.stop());

describe('the contract profile against docproc mock (Prism)', () => {
  it('exits 0, and no scenario crashes (a crash is a suite bug)', () => {
    expect(run.code, run.output).toBe(0);
    expect(run.report!.unattributed, run.output).toEqual([]);
  });

  it('passes and exercises every contract check; full-profile checks are reported as such, not as passed', () => {
    const byOutcome = (p: string) => run.report!.checks.filter((c) => c.profile === p);
    expect(
      byOutcome('contract')
        .filter((c) => c.outcome !== 'passed')
        .map((c) => `${c.id}: ${c.outcome}`),
      run.output,
    ).toEqual([]);
    expect(new Set(byOutcome('full').map((c) => c.outcome))).toEqual(new Set(['not-in-profile']));
    expect(byOutcome('full').every((c) => c.passes === 0)).toBe(true);
  });

  it('skips the full-profile scenarios visibly, with the reason', () => {
    const skipped = run.report!.tests.filter((t) => t.state === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(new Set(skipped.map((t) => t.note))).toEqual(new Set(['full profile only (--profile full)']));
  });
});
