import { checks } from '../checks/index.js';
import { describe, openSuite } from '../harness/suite.js';
import { runModel } from '../model/run-model.js';

const kit = await openSuite('model');
const { model, races } = checks;
const declared = [
  model.lists,
  model.documents,
  model.updatedAtMoves,
  model.processedAt,
  model.onTheClock,
  model.idempotencyLifecycle,
  races.distinctIds,
];

describe('the model of the contract', () => {
  kit.scenario(
    `random sequences of uploads, lists, reads and retries${kit.config.secondApiKey !== undefined ? ' by two tenants' : ''} agree with it`,
    { profile: 'full', checks: declared },
    async () => {
      const what = "the model run's walk of every list view across every change";
      kit.judge.fixedPart({ what, ended: false });
      const { sequences } = await runModel({
        http: kit.http,
        judge: kit.judge,
        contract: kit.contract,
        facts: kit.facts,
        limits: kit.limits,
        timeoutMs: kit.config.timeoutMs,
        secondTenant: kit.config.secondApiKey !== undefined,
        baseUrl: kit.config.baseUrl,
        reproDir: kit.config.reproDir,
        reproShownAs: kit.config.reproShownAs,
        token: (label) => kit.token(label),
        seed: kit.config.seed,
        runs: kit.config.modelRuns,
        timeMs: kit.config.modelTimeMs,
        clockSkewMs: kit.config.clockSkewMs,
        onFixedEnd: (ms) => kit.judge.fixedPart({ what, ended: true, ms }),
      });
      // A budget too small for some kind of step leaves its check without a verdict, said so, never passed.
      for (const check of declared.filter((c) => !kit.judge.evaluated(c))) {
        kit.judge.notExercised(
          check,
          `the ${sequences} sequence(s) (the fixed walk, then those --model-runs and --model-time-ms allowed) gave no occasion for it`,
        );
      }
    },
  );
});
