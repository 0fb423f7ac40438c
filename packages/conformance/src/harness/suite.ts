import type { Contract } from '@docproc-kit/contract/load-contract.js';
import { type AnyCheck, type Check, catalogFor, type Profile, profileIncludes } from '../checks/index.js';
import type { ConformanceSuiteConfig } from '../definitions/config.js';
import type { Exchange, FilePart, KeyChoice } from '../definitions/exchange.js';
import { createTestRecord } from '../definitions/records.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import { createReachObserver } from '../inputs/reach.js';
import { createExpectations, type Expectations } from '../judging/expect.js';
import { createJudge, type Judge } from '../judging/judge.js';
import { type ContractFacts, contractFacts } from '../rules/contract-facts.js';
import { type Api, createApi } from '../transport/api.js';
import { createHttp, type Http } from '../transport/http.js';
import { IntermediaryAnswered } from '../transport/intermediary.js';
import { createLimits, type Limits, OverLimit } from '../transport/limits.js';
import { sendWhileReading } from '../transport/race/release.js';
import { RunStopped, TargetUnavailable } from '../transport/transient.js';
import { loadingContext, registerScenario, ScenarioSkipped } from './registry.js';

/** Tools a scenario gets besides the suite kit. */
export interface ScenarioTools {
  /** Records `checks` (default: all the scenario declared) as not exercised and skips the test with `reason`. */
  notExercised(reason: string, checks?: Check[]): never;
}

/** What a scenario declares: the least profile it needs and the checks it promises to evaluate. */
export interface ScenarioSpec {
  profile: Profile;
  checks: Check[];
}

/** Everything a scenario file needs: the target's config, the contract, an API bound to the run, and the file's judge. */
export interface SuiteKit extends Expectations {
  config: ConformanceSuiteConfig;
  contract: Contract;
  facts: ContractFacts;
  /** The run's profile. */
  profile: Profile;
  /** What the deployment accepts in one upload; uploads beyond it are refused before they are sent. */
  limits: Limits;
  /** A token unique to this run and area (and label): `conformance-<runId>-<area>[-label]`. */
  token(label?: string): string;
  http: Http<Judge>;
  /** The API with the run's key. */
  api: Api<Judge>;
  /** The API with another key choice (second tenant, none, a wrong one). */
  as(key: KeyChoice): Api<Judge>;
  /** Uploads `parts` in as few requests as the deployment's file limit allows, in order. */
  uploadInBatches(parts: FilePart[], api?: Api<Judge>): Promise<Exchange[]>;
  /** The file's judge: verdicts of every scenario in this file go through it. */
  judge: Judge;
  /** Records a pass of `check` when `holds`, else fails it (see {@link Judge.verify}). */
  verify: Judge['verify'];
  /** A precondition judged as `check` that never counts as its pass (see {@link Judge.require}). */
  require: Judge['require'];
  /** Hands an observation to the check's own judge (see {@link Judge.check}). */
  check: Judge['check'];
  /** The run's check with this id (boundary checks are generated from the contract): throws when there is none. */
  checkNamed(id: string): AnyCheck;
  /** Declares one test; see {@link ScenarioSpec}. */
  scenario(name: string, spec: ScenarioSpec, fn: (tools: ScenarioTools) => Promise<void>): void;
}

/** Resolves `fn` once, however many scenarios ask (shared set-up that is itself checked). */
export function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The error the runner sees for a failed scenario: one short line with no frames. The verdict itself is in
 * the test's record, printed by the suite's reporter.
 */
function quietError(message: string): Error {
  const error = new Error(message);
  error.stack = `Error: ${message}`;
  return error;
}

/**
 * Opens the suite for one scenario file (`file` names it in request ids when an area has several files):
 * reads the run's config, loads the contract, builds the file's judge and HTTP layer.
 * @example const kit = await openSuite('list'); kit.scenario('lists', { profile: 'contract', checks: [] }, async () => { await kit.api.list(); });
 */
export async function openSuite(area: Check['area'], file: string = area): Promise<SuiteKit> {
  const { config, contract, dispatcher, gate, pacer } = loadingContext();
  const facts = contractFacts(contract);
  const judge = createJudge(config.profile, {
    reach: createReachObserver(contract, {
      token: `conformance-${config.runId}`,
      ...(config.maxFiles !== undefined ? { maxFiles: config.maxFiles } : {}),
      ...(config.maxFileBytes !== undefined ? { maxFileBytes: config.maxFileBytes } : {}),
    }),
  });
  const limits = createLimits(config, facts);
  const http: Http<Judge> = createHttp({
    baseUrl: config.baseUrl,
    keys: { primary: config.apiKey, ...(config.secondApiKey !== undefined ? { secondary: config.secondApiKey } : {}) },
    contract,
    strict: config.strict,
    requestTimeoutMs: config.requestTimeoutMs,
    // Per file, not per area: two files of one area must never send the same request id.
    requestIdPrefix: `conformance-${config.runId}-${file}`,
    reproDir: config.reproDir,
    reproShownAs: config.reproShownAs,
    transport: config.transport,
    dispatcher,
    earlyAnswer: (prepared, transport) => sendWhileReading(transport ? { ...http, transport } : http, prepared, config.requestTimeoutMs),
    judge,
    maxBodyBytes: config.maxBodyBytes,
    maxWaitMs: config.maxWaitMs,
    gate,
    pacer,
  });
  const guarded = (key: KeyChoice) => limits.guard(createApi(http, key));
  const api = guarded('primary');
  return {
    config,
    contract,
    facts,
    profile: config.profile,
    limits,
    token: (label) => `conformance-${config.runId}-${area}${label ? `-${label}` : ''}`,
    http,
    api,
    as: guarded,
    async uploadInBatches(parts, through = api) {
      const exchanges: Exchange[] = [];
      for (let i = 0; i < parts.length; i += limits.maxFiles) exchanges.push(await through.upload(parts.slice(i, i + limits.maxFiles)));
      return exchanges;
    },
    judge,
    checkNamed(id) {
      const found = catalogFor(contract).find((c) => c.id === id);
      if (!found) throw new Error(`conformance suite bug: no check ${id} in this run's catalog`);
      return found;
    },
    verify: judge.verify,
    require: judge.require,
    check: judge.check,
    ...createExpectations(judge),
    scenario(name, spec, fn) {
      const stray = spec.checks.filter((c) => !profileIncludes(spec.profile, c.profile));
      if (stray.length) throw new Error(`scenario "${name}" is ${spec.profile} but declares ${stray.map((c) => c.id).join(', ')}`);
      registerScenario(name, async (ctx) => {
        const record = createTestRecord();
        record.declared = spec.checks.map((c) => c.id);
        ctx.record = record;
        judge.use(record);
        const notExercised = (reason: string, which: Check[]): never => {
          for (const check of which) judge.notExercised(check, reason);
          return ctx.skip(`not exercised: ${reason}`);
        };
        try {
          if (!profileIncludes(config.profile, spec.profile)) ctx.skip('full profile only (--profile full)');
          try {
            await fn({ notExercised: (reason, which = spec.checks) => notExercised(reason, which) });
          } catch (error) {
            // An upload the deployment's limits forbid was never sent: what it was for is not exercised.
            // So is one that a proxy in front of the service answered itself (a warning, recorded already).
            if (error instanceof OverLimit || error instanceof IntermediaryAnswered)
              notExercised(
                error.message,
                spec.checks.filter((c) => !judge.evaluated(c)),
              );
            throw error;
          }
          // A scenario that returns without evaluating a check it promised would report a pass it never earned.
          const missed = spec.checks.filter((c) => !judge.evaluated(c) && !record.notExercised.some((n) => n.check === c.id));
          if (missed.length) throw new Error(`conformance suite bug: "${name}" never evaluated ${missed.map((c) => c.id).join(', ')}`);
        } catch (error) {
          if (error instanceof ScenarioSkipped) throw error;
          // No verdict on the target: the run stopped (its deadline) or the target is unavailable.
          if (error instanceof RunStopped || error instanceof TargetUnavailable) {
            record.stopped = {
              reason: error instanceof TargetUnavailable ? 'unavailable' : 'deadline',
              message: error.message,
              ...(error instanceof TargetUnavailable && error.lastAnswered ? { lastAnswered: error.lastAnswered } : {}),
            };
            return ctx.skip(error.message);
          }
          if (error instanceof ConformanceFailure) {
            judge.fail(catalogFor(contract).find((c) => c.id === error.record.check)!, error.record);
            throw quietError(`${error.record.check} failed`);
          }
          const { message = String(error), stack = '' } = (error ?? {}) as Error;
          record.crash = {
            message: truncate(message, 2000),
            stack: stack
              .split('\n')
              .filter((l) => /^\s+at /.test(l))
              .slice(0, 8)
              .join('\n'),
          };
          throw quietError(`crashed: ${truncate(message.split('\n')[0] ?? '', 200)}`);
        } finally {
          judge.use(undefined);
        }
      });
    },
  };
}

export { describe } from './registry.js';
