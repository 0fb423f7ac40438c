import { profileIncludes, type Check, type Profile } from './checks/index.js';
import { ConformanceFailure, type FailureDetails } from './failure.js';
import { recordPass } from './recorder.js';

let runProfile: Profile = 'contract';

/** Sets the profile of this run, so that a check outside it can never be evaluated by mistake. */
export function setRunProfile(profile: Profile): void {
  runProfile = profile;
}

/** The profile of this run. */
export function currentProfile(): Profile {
  return runProfile;
}

/**
 * Records a pass of `check` when `holds`, else throws its structured failure (details built lazily).
 * @example verify(checks.list.limitRespected, docs.length <= 2, () => ({ received: `${docs.length} documents`, documented: 'at most 2', exchange }));
 */
export function verify(check: Check, holds: boolean, details: () => FailureDetails): void {
  if (!profileIncludes(runProfile, check.profile)) {
    throw new Error(`conformance suite bug: ${check.id} (${check.profile}) evaluated in a ${runProfile} run`);
  }
  if (!holds) throw new ConformanceFailure(check, details());
  recordPass(check);
}
