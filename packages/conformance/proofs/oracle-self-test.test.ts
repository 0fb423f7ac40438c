import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCENARIO_AREAS } from '../src/run/areas.js';
import { type CoreMutant, mutatedCopy, serveCore } from './mutated-core.js';
import { failedChecks, fullProfileArgs, runSuite } from './run-suite.js';

// The differential run's self-test (issue 29): generated mutants of the reference core, as StrykerJS lists
// them (`npm run mutation`), that the hand-written checks miss and the oracle sees. Each is applied to a copy
// of the core's sources, served by the fetch mock from a child process (mutated-core.ts); the suite runs in
// processes of its own, where the oracle's reference core is the unmutated one. One mutant at a time: two
// suites and a mock side by side already fill a 2-core machine.
const MUTANTS = JSON.parse(readFileSync(new URL('./oracle-self-test-mutants.json', import.meta.url), 'utf8')) as Array<
  CoreMutant & { fails: string[] }
>;
const KEYS = ['self-test-key', 'self-test-second-key'];
// As packages/msw/src/fetch-conformance.test.ts judges the fetch mock.
const SETTINGS = { apiKeys: KEYS, maxFileBytes: 65_536, processingDelayMs: 200 };
/** The random sequences (the model run's and the oracle's) are the ones the mutants were measured with. */
const SEED = '29';
// The sequence that shows a mutant comes some seconds in (the 25th, for the Allow mutants): time enough for
// it on a loaded machine, while a run that finds it stops there (and shrinks it, 30 s at most).
const ORACLE_TIME_MS = '30000';
const HAND_WRITTEN = SCENARIO_AREAS.filter((area) => area !== 'oracle');

describe('the oracle fails generated mutants of the reference core that the hand-written checks pass', () => {
  it('lists a handful of them, each where its original text still is', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(2);
    for (const mutant of MUTANTS) mutatedCopy(mutant).remove();
  });

  it.each(MUTANTS)(
    '$key: every area but the oracle passes, the oracle fails $fails',
    async (mutant) => {
      const copy = mutatedCopy(mutant);
      try {
        const core = await serveCore(copy.src, SETTINGS);
        try {
          const args = [
            ...fullProfileArgs(core.baseUrl, { keys: KEYS, maxFileBytes: SETTINGS.maxFileBytes, requestTimeoutMs: 20_000 }),
            ...['--seed', SEED, '--max-run-s', '150'],
          ];
          const handWritten = await runSuite([...args, '--only', HAND_WRITTEN.join(',')], { timeoutMs: 150_000 });
          expect(handWritten.code, handWritten.output).toBe(0);
          const oracle = await runSuite([...args, '--only', 'oracle', '--oracle-time-ms', ORACLE_TIME_MS], { timeoutMs: 120_000 });
          expect(oracle.code, oracle.output).toBe(1);
          expect(failedChecks(oracle), oracle.output).toEqual(mutant.fails);
        } finally {
          await core.close();
        }
      } finally {
        copy.remove();
      }
    },
    330_000,
  );
});
