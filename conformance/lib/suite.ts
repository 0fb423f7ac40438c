import { inject, it } from 'vitest';
import type { ConformanceSuiteConfig } from '../../src/commands/conformance.js';
import { loadContract, type Contract } from '../../src/contract/contract.js';
import { createApi, type Api } from './api.js';
import { checkById, profileIncludes, type Area, type Check, type Profile } from './checks/index.js';
import { contractFacts, type ContractFacts } from './contract-facts.js';
import type { KeyChoice } from './exchange.js';
import { ConformanceFailure } from './failure.js';
import { createHttp, type Http } from './http.js';
import { createTestRecord, recordFailure, recordNotExercised, useRecord, wasEvaluated } from './recorder.js';
import { setRunProfile } from './verify.js';

declare module 'vitest' {
  export interface ProvidedContext {
    docprocConformance: ConformanceSuiteConfig;
  }
}

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

/** Everything a scenario file needs: the target's config, the contract, and an API bound to the run. */
export interface SuiteKit {
  config: ConformanceSuiteConfig;
  contract: Contract;
  facts: ContractFacts;
  /** A token unique to this run and area (and label): `conformance-<runId>-<area>[-label]`. */
  token(label?: string): string;
  http: Http;
  /** The API with the run's key. */
  api: Api;
  /** The API with another key choice (second tenant, none, a wrong one). */
  as(key: KeyChoice): Api;
  /** Declares one test; see {@link ScenarioSpec}. */
  scenario(name: string, spec: ScenarioSpec, fn: (tools: ScenarioTools) => Promise<void>): void;
}

/** Resolves `fn` once, however many scenarios ask (shared set-up that is itself checked). */
export function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
}

const contracts = new Map<string, Promise<Contract>>();

/**
 * The contract of `spec`, loaded once per worker (files share a worker when they run one after another);
 * `docproc conformance` validated it before starting vitest, so workers only dereference it.
 */
function contractOf(spec: string): Promise<Contract> {
  let contract = contracts.get(spec);
  if (!contract) contracts.set(spec, (contract = loadContract(spec, { validate: false })));
  return contract;
}

function readConfig(): ConformanceSuiteConfig {
  const config = inject('docprocConformance');
  if (!config?.baseUrl) throw new Error('the conformance suite runs through `docproc conformance --base-url URL --api-key KEY`, not bare vitest');
  return config;
}

/**
 * Opens the suite for one scenario file (`file` names it in request ids when an area has several files):
 * reads the run's config, loads the contract, builds the HTTP layer.
 * @example const kit = await openSuite('list'); kit.scenario('lists', { profile: 'contract', checks: [] }, async () => { await kit.api.list(); });
 */
export async function openSuite(area: Area, file: string = area): Promise<SuiteKit> {
  const config = readConfig();
  setRunProfile(config.profile);
  const contract = await contractOf(config.spec);
  const http = createHttp({
    baseUrl: config.baseUrl,
    keys: { primary: config.apiKey, ...(config.secondApiKey !== undefined ? { secondary: config.secondApiKey } : {}) },
    contract,
    strict: config.strict,
    requestTimeoutMs: config.requestTimeoutMs,
    // Per file, not per area: two files of one area must never send the same request id.
    requestIdPrefix: `conformance-${config.runId}-${file}`,
    reproDir: config.reproDir,
  });
  const facts = contractFacts(contract);
  return {
    config,
    contract,
    facts,
    token: (label) => `conformance-${config.runId}-${area}${label ? `-${label}` : ''}`,
    http,
    api: createApi(http),
    as: (key) => createApi(http, key),
    scenario(name, spec, fn) {
      const stray = spec.checks.filter((c) => !profileIncludes(spec.profile, c.profile));
      if (stray.length) throw new Error(`scenario "${name}" is ${spec.profile} but declares ${stray.map((c) => c.id).join(', ')}`);
      it(name, async (ctx) => {
        const record = createTestRecord();
        record.declared = spec.checks.map((c) => c.id);
        ctx.task.meta.conformance = record;
        useRecord(record);
        try {
          if (!profileIncludes(config.profile, spec.profile)) ctx.skip('full profile only (--profile full)');
          await fn({
            notExercised(reason, which = spec.checks) {
              for (const check of which) recordNotExercised(check, reason);
              return ctx.skip(`not exercised: ${reason}`);
            },
          });
          // A scenario that returns without evaluating a check it promised would report a pass it never earned.
          const missed = spec.checks.filter((c) => !wasEvaluated(c) && !record.notExercised.some((n) => n.check === c.id));
          if (missed.length) throw new Error(`conformance suite bug: "${name}" never evaluated ${missed.map((c) => c.id).join(', ')}`);
        } catch (error) {
          if (error instanceof ConformanceFailure) recordFailure(checkById(error.record.check)!, error.record);
          throw error;
        } finally {
          useRecord(undefined);
        }
      });
    },
  };
}
