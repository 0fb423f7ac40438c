import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { failedChecks } from '@docproc-kit/test-support/run-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFor } from '../src/checks/index.js';
import { allMutants, mutantRuns, provenByUnitTests } from './mutant-catalog.js';
import { createRunnerPool } from './runner-pool.js';

const catalog = catalogFor(await loadContract());
// One real reference server behind a proxy per mutant; each run uses its own run id, so runs side by side
// never see each other's documents.
const KEYS = { primary: 'mutant-primary-key', secondary: 'mutant-second-key' };
// Checks that compare one status with the documented one (expectStatus/expectProblem) and have no mutant
// of their own; the same helpers fail for the mutants of their neighbours.
const NOT_MUTATED = ['get.returns-document', 'get.unknown-id', 'retry.accepted', 'retry.unknown-id', 'retry.rejects-invalid-id'];
// Two long-lived runner processes (tsx and the suite load once each), each running one mutant at a time.
const pool = createRunnerPool(2);
// Long enough that a stalled event loop on a busy CI machine cannot let a whole processing run finish
// between two simultaneous retries (the races of retries would then be run again: retry-races.suite.ts).
const PROCESSING_DELAY_MS = 200;
const SERVER_LIMITS = { maxFiles: 20, maxFileBytes: 65_536 };
let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({
    apiKeys: [KEYS.primary, KEYS.secondary],
    ...SERVER_LIMITS,
    processingDelayMs: PROCESSING_DELAY_MS,
  });
});
afterAll(async () => {
  await pool.close();
  await server?.close();
});

describe('the suite fails every broken server, naming the broken property', { concurrent: true }, () => {
  it('has at least a dozen mutants, each with a distinct name', () => {
    expect(allMutants.length).toBeGreaterThanOrEqual(12);
    expect(new Set(allMutants.map((m) => m.name)).size).toBe(allMutants.length);
  });

  it('proves every check can fail, by a mutant here or by a unit test (checks/response.test.ts), but for a few plain status checks', () => {
    const proven = new Set([...allMutants.flatMap((m) => m.fails), ...provenByUnitTests.keys()]);
    expect(catalog.filter((c) => !proven.has(c.id)).map((c) => c.id)).toEqual(NOT_MUTATED);
  });

  it.each(mutantRuns())(
    '$name: fails $fails',
    async (mutant) => {
      const proxy = await startMutationProxy(server.baseUrl, mutant.mutation(KEYS));
      try {
        // The deployment's limits, as a CI job documents them (the suite would assume the contract's defaults).
        const run = await pool.run({
          baseUrl: proxy.baseUrl,
          apiKey: KEYS.primary,
          only: mutant.only,
          ...SERVER_LIMITS,
          ...mutant.options(KEYS),
        });
        expect(run.code, run.output).toBe(1);
        expect(failedChecks(run), run.output).toEqual([...mutant.fails].sort());
        expect(run.report!.unattributed, run.output).toEqual([]);
        // Every failure carries a reproducer (a curl command, or a script of them), and no key is ever printed or stored.
        const failures = run.report!.checks.flatMap((c) => c.failures);
        expect(failures.every((f) => /^(curl |#!\/bin\/sh\n)/.test(f.curl ?? '') && f.received && f.expected)).toBe(true);
        expect(run.output + JSON.stringify(run.report)).not.toContain(KEYS.primary);
        // A check its scenario never got to judge is not exercised, however far the scenario got.
        const passed = new Set(run.report!.checks.filter((c) => c.outcome === 'passed').map((c) => c.id));
        expect(
          mutant.notPassed.filter((id) => passed.has(id)),
          run.output,
        ).toEqual([]);
        const messages = run.report!.checks.flatMap((c) => c.failures.map((f) => `${f.received}\n${f.expected}`)).join('\n');
        for (const mention of mutant.mentions) expect(messages).toContain(mention);
      } finally {
        await proxy.close();
      }
    },
    600_000,
  );
});
