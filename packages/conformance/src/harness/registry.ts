import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { Dispatcher } from 'undici';
import type { ConformanceSuiteConfig } from '../definitions/config.js';
import type { TestRecord } from '../definitions/records.js';
import type { Pacer, RunGate } from '../transport/transient.js';

/** What every scenario file of one run shares: the config, the compiled contract, connection pools, the stop gate and the pacer. */
export interface RunContext {
  config: ConformanceSuiteConfig;
  contract: Contract;
  /** None: fetch's own (a target reached straight with Node's certificates). */
  dispatcher: Dispatcher | undefined;
  gate: RunGate;
  pacer: Pacer;
}

/** What the runner hands a scenario while it runs: where its record goes, and how it skips. */
export interface ScenarioContext {
  record?: TestRecord;
  /** Ends the scenario as skipped with `note` (the report's reason). */
  skip(note: string): never;
}

/** One scenario as a file registered it: its name under its `describe` groups, and its body. */
export interface RegisteredScenario {
  /** `group > sub-group > name`. */
  fullName: string;
  run(context: ScenarioContext): Promise<void>;
}

/** Thrown by {@link ScenarioContext.skip}: the runner records the scenario as skipped with `note`. */
export class ScenarioSkipped extends Error {
  constructor(readonly note: string) {
    super(note);
  }
}

interface Loading {
  context: RunContext;
  groups: string[];
  scenarios: RegisteredScenario[];
}

let loading: Loading | undefined;
let queue: Promise<unknown> = Promise.resolve();

function current(what: string): Loading {
  if (!loading)
    throw new Error(
      `${what} runs while a scenario file loads: the suite runs through \`docproc-conformance --base-url URL --api-key KEY\` (or \`docproc conformance\`), not on its own`,
    );
  return loading;
}

/**
 * Groups the scenarios `body` declares under `name` (names read `name > scenario` in the report).
 * @example describe('getDocument', () => { kit.scenario('reads one', spec, async () => {}); });
 */
export function describe(name: string, body: () => void): void {
  const file = current('describe');
  file.groups.push(name);
  try {
    body();
  } finally {
    file.groups.pop();
  }
}

/** Registers a scenario of the file that is loading (the kit's `scenario` calls it). */
export function registerScenario(name: string, run: RegisteredScenario['run']): void {
  const file = current('a scenario');
  file.scenarios.push({ fullName: [...file.groups, name].join(' > '), run });
}

/** The run's context, for the file that is loading (`openSuite` reads it). */
export function loadingContext(): RunContext {
  return current('openSuite').context;
}

/**
 * Loads one scenario file (`load` imports it) and returns the scenarios it registered. Loads happen one at
 * a time, so a file's top-level `openSuite` and `kit.scenario` calls land in its own list however many
 * files run at once.
 */
export function collectScenarios(context: RunContext, load: () => Promise<unknown>): Promise<RegisteredScenario[]> {
  const collected = queue.then(async () => {
    loading = { context, groups: [], scenarios: [] };
    try {
      await load();
      return loading.scenarios;
    } finally {
      loading = undefined;
    }
  });
  queue = collected.catch(() => undefined);
  return collected;
}
