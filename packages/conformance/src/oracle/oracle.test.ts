import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checks } from '../checks/index.js';
import { createTestRecord } from '../definitions/records.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import { createJudge } from '../judging/judge.js';
import { contractFacts } from '../rules/contract-facts.js';
import { createHttp } from '../transport/http.js';
import { runOracle } from './run-oracle.js';

// The oracle judged by the reference server as a real deployment runs it (its Node front, lowdb on disk,
// its own processing): hundreds of random sequences by two tenants must show no difference, as a false
// difference here would be a false failure for every user. Runs of a few milliseconds, so sequences see
// documents end at every point; a small file limit, so its boundaries are sent too.
const KEYS = { primary: 'oracle-primary-key', secondary: 'oracle-second-key' };
const LIMITS = { maxFiles: 3, maxFileBytes: 65_536 };
const RUNS_AT_ONCE = 2;
const SEQUENCES_EACH = 500;
const contract = await loadContract();
const facts = contractFacts(contract);
const scratch = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'oracle-test-'));
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
    requestIdPrefix: `oracle-test-${seed}`,
    reproDir: join(scratch, 'repro'),
    judge,
  });
  try {
    const result = await runOracle({
      http,
      judge,
      checks: checks.oracle,
      contract,
      keys: KEYS,
      limits: LIMITS,
      fileField: facts.fileField,
      timeoutMs: 30_000,
      baseUrl: server.baseUrl,
      reproDir: join(scratch, 'repro'),
      token: (label) => `conformance-oracle-test-${seed}-${label}`,
      seed,
      runs: SEQUENCES_EACH,
      timeMs: 600_000,
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

describe('the reference core as an oracle, against the reference server', () => {
  it(`finds no difference in ${RUNS_AT_ONCE * SEQUENCES_EACH} random sequences by two tenants`, async () => {
    const results = await Promise.all(Array.from({ length: RUNS_AT_ONCE }, (_, i) => run(20_261_126 + i)));
    expect(results.map((r) => r.sequences - r.fixed)).toEqual(Array(RUNS_AT_ONCE).fill(SEQUENCES_EACH));
    // Every operation's answers were compared, many times over.
    const passed = (id: string) => results.reduce((n, r) => n + (r.counts[id]?.passed ?? 0), 0);
    for (const check of Object.values(checks.oracle)) expect(passed(check.id), check.id).toBeGreaterThan(100);
  }, 600_000);
});
