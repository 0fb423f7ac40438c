import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceServer, startReferenceServer } from '../../test/support/reference-server.js';
import { catalog } from '../checks/index.js';
import { mutants as plainMutants } from './mutants.js';
import { statefulMutants } from './mutants-stateful.js';
import { startMutationProxy } from './mutation-proxy.js';
import { failedChecks } from './run-suite.js';
import { createRunnerPool } from './runner-pool.js';

// One real reference server behind a proxy per mutant; each run uses its own run id, so runs side by side
// never see each other's documents.
const KEYS = { primary: 'mutant-primary-key', secondary: 'mutant-second-key' };
const mutants = [...plainMutants, ...statefulMutants];
// Response checks whose failures lib/check-response.test.ts proves on hand-made responses.
const PROVEN_BY_UNIT_TESTS = ['response.content-type-documented', 'response.error-code-documented', 'response.request-id-echoed'];
// Checks that compare one status with the documented one (expectStatus/expectProblem) and have no mutant
// of their own; the same helpers fail for the mutants of their neighbours.
const NOT_MUTATED = [
  'upload.accepted',
  'upload.one-document-per-part',
  'upload.no-files',
  'upload.too-many-files',
  'upload.file-too-large',
  'list.defaults',
  'list.unknown-params-ignored',
  'get.returns-document',
  'get.unknown-id',
  'retry.accepted',
  'retry.unknown-id',
  'retry.rejects-invalid-id',
  'robustness.unknown-path',
  'robustness.hostile-rejected',
];
// Two long-lived runner processes (tsx and vitest start once each), each running one mutant at a time.
const pool = createRunnerPool(2);
// Long enough that a stalled event loop on a busy CI machine cannot let a whole processing run finish
// between two simultaneous retries (which the 409 check would rightly call a defect).
const PROCESSING_DELAY_MS = 200;
let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({
    apiKeys: [KEYS.primary, KEYS.secondary],
    maxFiles: 20,
    maxFileBytes: 65_536,
    processingDelayMs: PROCESSING_DELAY_MS,
  });
});
afterAll(async () => {
  await pool.close();
  await server?.close();
});

describe('the suite fails every broken server, naming the broken property', { concurrent: true }, () => {
  it('has at least a dozen mutants, each with a distinct name', () => {
    expect(mutants.length).toBeGreaterThanOrEqual(12);
    expect(new Set(mutants.map((m) => m.name)).size).toBe(mutants.length);
  });

  it('proves every check can fail, by a mutant here or in lib/check-response.test.ts, but for a few plain status checks', () => {
    const proven = new Set([...mutants.flatMap((m) => m.fails), ...PROVEN_BY_UNIT_TESTS]);
    expect(catalog.filter((c) => !proven.has(c.id)).map((c) => c.id)).toEqual(NOT_MUTATED);
  });

  it.each(mutants)(
    '$name ($defect): fails $fails',
    async (mutant) => {
      const proxy = await startMutationProxy(server.baseUrl, mutant.mutation(KEYS));
      try {
        const run = await pool.run({ baseUrl: proxy.baseUrl, apiKey: KEYS.primary, only: mutant.only, ...mutant.options?.(KEYS) });
        expect(run.code, run.output).toBe(1);
        expect(failedChecks(run), run.output).toEqual([...mutant.fails].sort());
        expect(run.report!.unattributed, run.output).toEqual([]);
        // Every failure carries a reproducer (a curl command, or a script of them), and no key is ever printed or stored.
        const failures = run.report!.checks.flatMap((c) => c.failures);
        expect(failures.every((f) => /^(curl |#!\/bin\/sh\n)/.test(f.curl ?? '') && f.received && f.documented)).toBe(true);
        expect(run.output + JSON.stringify(run.report)).not.toContain(KEYS.primary);
        // A check its scenario never got to judge is not exercised, however far the scenario got.
        const passed = new Set(run.report!.checks.filter((c) => c.outcome === 'passed').map((c) => c.id));
        expect(
          (mutant.notPassed ?? []).filter((id) => passed.has(id)),
          run.output,
        ).toEqual([]);
        if (mutant.mentions) {
          const messages = run.report!.checks.flatMap((c) => c.failures.map((f) => `${f.received}\n${f.documented}`)).join('\n');
          expect(messages).toContain(mutant.mentions);
        }
      } finally {
        await proxy.close();
      }
    },
    600_000,
  );
});
