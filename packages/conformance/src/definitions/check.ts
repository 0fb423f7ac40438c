import type { CheckArea } from './areas.js';

/** The two profiles: `contract` is stateless-safe (passes against a mock), `full` adds stateful behaviour. */
export type Profile = 'contract' | 'full';

/** The groups CHECKS.md and the report use (the one list lives in definitions/areas.ts). */
export type Area = CheckArea;

/**
 * Why a check does not hold: what the target answered and what the contract expects, as text a person
 * reads (the report lays it out; a check never formats a failure block itself).
 */
export interface Finding {
  received: string;
  expected: string;
  /** Extra context for humans (e.g. which documents a walk saw). */
  note?: string;
}

/** One named, stably identified property of a conforming server, with the function that judges it. */
export interface Check<I = never> {
  /** Stable id (`area.kebab-name`): reports, CI history and mutation tests key on it, so never rename one. */
  readonly id: string;
  /** The least profile that runs it (`contract` checks run in `full` too). */
  readonly profile: Profile;
  readonly area: Area;
  /** One line: what a pass proves. */
  readonly description: string;
  /**
   * The ids of the contract's rules a pass of this check is evidence for (rules/: a prose
   * rule's id, a schema rule's id, or `@tag` for every schema rule with that tag). CHECKS.md traces each
   * rule to the checks that declare it and to the mutants that prove those checks.
   */
  readonly rules: readonly string[];
  /** What decides the verdict besides the contract's rules, when the protocol does (RFC 9110's "a response"). */
  readonly basis?: string;
  /**
   * Judges one observation: `undefined` when the property holds, else the finding. A scenario gathers the
   * observation and hands it over with `kit.check(check, observation, exchange)`; checks decided by an
   * answer's status or problem code share checks/answer-judge.ts, which the expectations (judging/expect.ts) feed;
   * the stateful model's checks are shown what the model expects of an answer beside what the target showed.
   */
  judge?(observation: I): Finding | undefined;
}

/** Any check, whatever it judges (what the catalog, the report and the judge handle). */
// biome-ignore lint/suspicious/noExplicitAny: a catalog holds checks of every observation type; `never` would reject calling judge, `unknown` would reject typed judges
export type AnyCheck = Check<any>;

const registry = new Map<string, AnyCheck>();

/** Throws unless `id` is `area.kebab-case` in its own area (response checks may be `http.` or `document.`). */
export function assertCheckId(id: string, area: Area): void {
  if (!/^[a-z]+\.[a-z0-9-]+$/.test(id)) throw new Error(`check id must be area.kebab-case: ${id}`);
  if (!id.startsWith(`${area}.`) && !(area === 'response' && /^(http|document)\./.test(id))) {
    throw new Error(`check ${id} is not in its area ${area}`);
  }
}

/**
 * Declares a check of the static catalog; ids must be unique across it.
 * @example const c = defineCheck({ id: 'list.defaults', profile: 'contract', area: 'list', description: '...', rules: ['list.defaults'] });
 */
export function defineCheck<I = never>(check: Check<I>): Check<I> {
  assertCheckId(check.id, check.area);
  if (registry.has(check.id)) throw new Error(`duplicate check id ${check.id}`);
  const frozen = Object.freeze({ ...check, rules: Object.freeze([...check.rules]) });
  registry.set(check.id, frozen);
  return frozen;
}

/** A finding, for judges: `fail('3 documents', 'exactly 2')`. */
export function fail(received: string, expected: string, note?: string): Finding {
  return { received, expected, ...(note ? { note } : {}) };
}

/** Whether a run of `profile` evaluates checks of `checkProfile`. */
export function profileIncludes(profile: Profile, checkProfile: Profile): boolean {
  return profile === 'full' || checkProfile === 'contract';
}
