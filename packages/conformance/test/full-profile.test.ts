import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { checksNotPassed, fullProfileArgs, runSuite, type SuiteRun } from '@docproc-kit/test-support/run-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../src/report/html-report.js';

// The reference server in this process, on a free port, with the fast processing delay of tests.
const KEYS = ['full-profile-key', 'full-profile-second-key'];
const MAX_FILE_BYTES = 65_536;
// Long enough that a stalled event loop on a busy CI machine cannot let a whole processing run finish
// between two simultaneous retries (the races of retries would then be run again: retry-races.suite.ts).
const PROCESSING_DELAY_MS = 200;
let server: RunningReferenceServer;
let run: SuiteRun;
const pageDir = mkdtempSync(join(tmpdir(), 'conformance-full-profile-'));
const page = join(pageDir, 'report.html');

beforeAll(async () => {
  server = await startReferenceServer({
    apiKeys: KEYS,
    maxFiles: 20,
    maxFileBytes: MAX_FILE_BYTES,
    processingDelayMs: PROCESSING_DELAY_MS,
  });
  run = await runSuite(fullProfileArgs(server.baseUrl, { keys: KEYS, maxFileBytes: MAX_FILE_BYTES, requestTimeoutMs: 20_000 }), {
    junit: true,
    env: { DOCPROC_HTML: page },
  });
}, 300_000);
afterAll(async () => {
  await server?.close();
  rmSync(pageDir, { recursive: true, force: true });
});

describe('the full profile against the reference server', () => {
  it('exits 0, printing neither key, and no scenario crashes (a crash is a suite bug)', () => {
    expect(run.code, run.output).toBe(0);
    expect(run.report!.unattributed, run.output).toEqual([]);
    for (const key of KEYS) expect(run.output + JSON.stringify(run.report)).not.toContain(key);
  });

  it('prints the seed of its random sequences, so a failing model run can be run again', () => {
    expect(run.output).toMatch(/\(profile full[^)]*, seed (\d+)\)[\s\S]*Seed +\1 \(--seed \1 runs the same random sequences again\)/);
    expect(run.report!.seed).toBeTypeOf('number');
  });

  it('passes every check in the catalog, and exercises each one (nothing skipped, nothing only warned)', () => {
    expect(checksNotPassed(run), run.output).toEqual([]);
    expect(run.report!.summary.tests.skipped, run.output).toBe(0);
  });

  it('observes every status a client can provoke that the contract documents for the four operations (all but 5xx and 429)', () => {
    const never = Object.entries(run.report!.statuses).flatMap(([op, e]) => e.neverObserved.map((s) => `${op} ${s}`));
    expect(never).toEqual([]);
  });

  it("reports what its requests reached: each operation's input partitions and document states, naming what it left out", () => {
    const operations = run.report!.coverage.operations;
    expect(operations.map((o) => o.operation)).toEqual(['uploadDocuments', 'listDocuments', 'getDocument', 'retryDocument']);
    for (const { operation, partitions, states } of operations) {
      expect(partitions.exercised + partitions.missing.length, operation).toBe(partitions.total);
      expect(states.reached + states.missing.length, operation).toBe(states.total);
      expect(run.output).toContain(
        `${operation}${' '.repeat(17 - operation.length)}partitions ${partitions.exercised}/${partitions.total}, states ${states.reached}/${states.total}`,
      );
    }
    // Every state and every partition is reached whatever the seed: the scenarios and the oracle's fixed
    // sequences (the sweep of key and X-Request-Id forms, the covering array of list pairs) send each one.
    expect(operations.flatMap((o) => o.states.missing.map((s) => `${o.operation} × ${s}`))).toEqual([]);
    expect(operations.flatMap((o) => o.partitions.missing.map((p) => `${o.operation}: ${p}`))).toEqual([]);
    expect(run.output).toMatch(/^ {3}Coverage 100\.0% \(input partitions exercised, document states reached/m);
  });

  it('writes a JUnit file with one test case per check, named by its id, and no failures', () => {
    expect(run.junit).toMatch(/<testsuites [^>]*failures="0"/);
    const names = [...run.junit!.matchAll(/<testcase [^>]*name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual(run.report!.checks.map((c) => c.id));
  });

  // The page in a browser: html-report.test.ts.
  it('writes its HTML page (DOCPROC_HTML) under 1 MB, rendered from the JSON in well under a second', () => {
    expect(statSync(page).size).toBeLessThan(1_000_000);
    const started = performance.now();
    const html = renderHtmlReport(run.report!);
    const ms = performance.now() - started;
    console.log(`full-profile.test: the page is ${statSync(page).size} bytes, rendered in ${ms.toFixed(1)} ms`);
    expect(html.length).toBeGreaterThan(10_000);
    expect(ms).toBeLessThan(1_000);
  });
});
