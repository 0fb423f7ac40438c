import { CONTRACT_VALUES } from '@docproc-kit/contract/generated/contract-values.js';
import { contractValuesOf } from '@docproc-kit/contract/values.js';
import { checks } from '../checks/index.js';
import { describe, openSuite } from '../harness/suite.js';
import { runOracle } from '../oracle/run-oracle.js';

const kit = await openSuite('oracle');
const declared = Object.values(checks.oracle);

describe('the reference core as an oracle', () => {
  kit.scenario(
    `random sequences${kit.config.secondApiKey !== undefined ? ' by two tenants' : ''} sent to the target and to the reference core in lockstep get the same answers`,
    { profile: 'full', checks: declared },
    async ({ notExercised }) => {
      const what = "the oracle's fixed sequences (the first, the clients' inputs, the sweep, the pairs)";
      kit.judge.fixedPart({ what, ended: false });
      // The twin is the reference core of the bundled contract: against another contract version it is no oracle.
      if (JSON.stringify(contractValuesOf(kit.config.contractDocument as never)) !== JSON.stringify(CONTRACT_VALUES))
        notExercised('--spec decides other values than the bundled contract, whose reference core is the oracle');
      const { sequences } = await runOracle({
        http: kit.http,
        judge: kit.judge,
        checks: checks.oracle,
        contract: kit.contract,
        keys: { primary: kit.config.apiKey, ...(kit.config.secondApiKey !== undefined ? { secondary: kit.config.secondApiKey } : {}) },
        limits: kit.limits,
        fileField: kit.facts.fileField,
        timeoutMs: kit.config.timeoutMs,
        baseUrl: kit.config.baseUrl,
        reproDir: kit.config.reproDir,
        reproShownAs: kit.config.reproShownAs,
        token: (label) => kit.token(label),
        seed: kit.config.seed,
        runs: kit.config.oracleRuns,
        timeMs: kit.config.oracleTimeMs,
        onFixedEnd: (ms) => kit.judge.fixedPart({ what, ended: true, ms }),
      });
      for (const check of declared.filter((c) => !kit.judge.evaluated(c)))
        kit.judge.notExercised(
          check,
          `the ${sequences} sequence(s) (the fixed ones, then those --oracle-runs and --oracle-time-ms allowed) gave no occasion for it`,
        );
    },
  );
});
