import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRecord } from '../definitions/records.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import { createJudge } from '../judging/judge.js';
import { contractFacts } from '../rules/contract-facts.js';
import { createHttp } from '../transport/http.js';
import { runModel } from './run-model.js';

// The model judged by the reference server: thousands of random sequences by two tenants must show no
// difference (a false difference here would be a false failure for every user). In this process, on a
// memory-backed data dir, with runs of a few milliseconds, so sequences see documents end at every point.
const KEYS = { primary: 'model-primary-key', secondary: 'model-second-key' };
const LIMITS = { maxFiles: 3, maxFileBytes: 65_536 };
// Sequences wait on the server (writes, runs, polls) more than they compute: several at once go faster.
const RUNS_AT_ONCE = 4;
const SEQUENCES_EACH = 500;
const contract = await loadContract();
const facts = contractFacts(contract);
const scratch = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'model-test-'));
let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({
    apiKeys: [KEYS.primary, KEYS.secondary],
    processingDelayMs: 2,
    ...LIMITS,
    dataDir: join(scratch, 'data'),
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
}, 30_000);

async function run(seed: number) {
  const judge = createJudge('full');
  const record = createTestRecord();
  judge.use(record);
  const http = createHttp({
    baseUrl: server.baseUrl,
    keys: KEYS,
    contract,
    strict: true,
    requestTimeoutMs: 10_000,
    requestIdPrefix: `model-test-${seed}`,
    reproDir: join(scratch, 'repro'),
    judge,
  });
  try {
    const result = await runModel({
      http,
      judge,
      contract,
      facts,
      limits: LIMITS,
      timeoutMs: 10_000,
      secondTenant: true,
      baseUrl: server.baseUrl,
      reproDir: join(scratch, 'repro'),
      token: (label) => `conformance-model-test-${seed}-${label}`,
      seed,
      runs: SEQUENCES_EACH,
      timeMs: 600_000,
      // The reference server's clock counts milliseconds, and its runs take a few: no need to wait longer.
      changeGapMs: 2,
      firstPollMs: 5,
    });
    return { ...result, counts: record.counts };
  } catch (error) {
    if (error instanceof ConformanceFailure) {
      const r = error.record;
      expect.fail(`${r.check}: ${r.received}\nexpected: ${r.expected}\n${r.note}\n${r.curl}`);
    }
    throw error;
  }
}

describe('the model of the contract against the reference server', () => {
  it(`finds no difference in ${RUNS_AT_ONCE * SEQUENCES_EACH} random sequences by two tenants`, async () => {
    const results = await Promise.all(Array.from({ length: RUNS_AT_ONCE }, (_, i) => run(20_240_502 + i)));
    expect(results.map((r) => r.sequences - r.fixed)).toEqual(Array(RUNS_AT_ONCE).fill(SEQUENCES_EACH));
    // Every kind of comparison was made, many times over.
    const passed = (id: string) => results.reduce((n, r) => n + (r.counts[id]?.passed ?? 0), 0);
    const judged = [
      'model.lists',
      'model.documents',
      'lifecycle.updated-at-moves',
      'lifecycle.processed-at',
      'lifecycle.reaches-terminal',
      'upload.idempotency-lifecycle',
      'upload.distinct-ids',
      'tenancy.document-hidden',
      'tenancy.list-hidden',
    ];
    for (const id of judged) expect(passed(id), id).toBeGreaterThan(500);
  }, 600_000);
});
