import type { CheckArea } from '../run/areas.js';

/** The two profiles: `contract` is stateless-safe (passes against a mock), `full` adds stateful behaviour. */
export type Profile = 'contract' | 'full';

/** The groups CHECKS.md and the report use (the one list lives in conformance/run/areas.ts). */
export type Area = CheckArea;

/** One named, stably identified property of a conforming server. */
export interface Check {
  /** Stable id (`area.kebab-name`): reports, CI history and mutation tests key on it, so never rename one. */
  readonly id: string;
  /** The least profile that runs it (`contract` checks run in `full` too). */
  readonly profile: Profile;
  readonly area: Area;
  /** One line: what a pass proves. */
  readonly description: string;
}

const registry = new Map<string, Check>();

/**
 * Declares a check; ids must be unique across the catalog.
 * @example const c = defineCheck({ id: 'list.defaults', profile: 'contract', area: 'list', description: '...' });
 */
export function defineCheck(check: Check): Check {
  if (!/^[a-z]+\.[a-z0-9-]+$/.test(check.id)) throw new Error(`check id must be area.kebab-case: ${check.id}`);
  if (!check.id.startsWith(`${check.area}.`) && !(check.area === 'response' && /^(http|document)\./.test(check.id))) {
    throw new Error(`check ${check.id} is not in its area ${check.area}`);
  }
  if (registry.has(check.id)) throw new Error(`duplicate check id ${check.id}`);
  const frozen = Object.freeze({ ...check });
  registry.set(check.id, frozen);
  return frozen;
}

/** Whether a run of `profile` evaluates checks of `checkProfile`. */
export function profileIncludes(profile: Profile, checkProfile: Profile): boolean {
  return profile === 'full' || checkProfile === 'contract';
}
