import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { checksNotPassed, fullProfileArgs, runSuite } from '@docproc-kit/test-support/run-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Gateways and overloaded deployments answer 429/503 with Retry-After, which the contract documents as
// "wait `Retry-After` seconds, then retry. Nothing was changed.": the suite judges the service's own such
// answer as it judges any (the documented problem, `Retry-After` in seconds), then waits it out and resends,
// so a correct service that answers some of its requests so passes the whole full profile.
const KEYS = ['transient-key', 'transient-second-key'];
const MAX_FILE_BYTES = 65_536;
let server: RunningReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({ apiKeys: KEYS, maxFiles: 20, maxFileBytes: MAX_FILE_BYTES, processingDelayMs: 200 });
});
afterAll(() => server?.close());

/** Injects the reference server's own faults for one key (docs/mock-controls.md). */
async function injectFaults(key: string, errors: Record<string, { rate: number; status: number; retry_after_s: number } | null>) {
  const response = await fetch(`${server.baseUrl}/_mock/faults`, {
    method: 'PATCH',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ errors }),
  });
  expect(response.status).toBe(200);
  const faults = (await response.json()) as { errors: Record<string, unknown> };
  expect(Object.keys(faults.errors).sort()).toEqual(
    Object.keys(errors)
      .filter((op) => errors[op] !== null)
      .sort(),
  );
}

describe("transient answers are judged as the service's, then waited out", () => {
  it('15% of every operation answered 429/503 with Retry-After: 1, for both keys: the full profile exits 0, and every resend is in the report', async () => {
    for (const key of KEYS)
      await injectFaults(key, {
        uploadDocuments: { rate: 0.15, status: 429, retry_after_s: 1 },
        listDocuments: { rate: 0.15, status: 503, retry_after_s: 1 },
        getDocument: { rate: 0.15, status: 429, retry_after_s: 1 },
        retryDocument: { rate: 0.15, status: 503, retry_after_s: 1 },
      });
    const run = await runSuite(fullProfileArgs(server.baseUrl, { keys: KEYS, maxFileBytes: MAX_FILE_BYTES, requestTimeoutMs: 20_000 }), {
      timeoutMs: 400_000,
    });
    expect(run.code, run.output).toBe(0);
    expect(checksNotPassed(run), run.output).toEqual([]);
    expect(run.report!.unattributed, run.output).toEqual([]);
    const { resends } = run.report!;
    expect(resends.total).toBeGreaterThan(10);
    expect(Object.keys(resends.byStatus).sort()).toEqual(['429', '503']);
    expect(resends.requests.every((r) => r.retryAfter === '1' && r.waitMs === 1000)).toBe(true);
    expect(run.output).toMatch(new RegExp(`Resent +${resends.total} request\\(s\\) after a transient answer \\(`));
  }, 420_000);
});
