import type { Contract } from '@docproc-kit/contract/load-contract.js';
import { CHECK_AREAS } from '../definitions/areas.js';
import type { AnyCheck } from '../definitions/check.js';
import { authChecks, tenancyChecks } from './auth.js';
import { boundaryCheck } from './boundary.js';
import { boundaryRules } from './boundary-cases.js';
import { getChecks, lifecycleChecks, retryChecks } from './document.js';
import { idempotencyChecks } from './idempotency.js';
import { listChecks } from './list.js';
import { modelChecks } from './model.js';
import { oracleChecks } from './oracle.js';
import { raceChecks } from './races.js';
import { responseChecks } from './response.js';
import { robustnessChecks } from './robustness.js';
import { uploadChecks, validationChecks } from './upload.js';

export type { AnyCheck, Area, Check, Profile } from '../definitions/check.js';
export { profileIncludes } from '../definitions/check.js';

/** Every check, grouped as the scenarios use them: `checks.list.statusFilter`. */
export const checks = {
  response: responseChecks,
  auth: authChecks,
  tenancy: tenancyChecks,
  validation: validationChecks,
  upload: uploadChecks,
  idempotency: idempotencyChecks,
  list: listChecks,
  get: getChecks,
  retry: retryChecks,
  lifecycle: lifecycleChecks,
  robustness: robustnessChecks,
  model: modelChecks,
  oracle: oracleChecks,
  races: raceChecks,
} as const;

/** The checks written in code, in a stable order. */
export const staticCatalog: readonly AnyCheck[] = Object.values(checks).flatMap((group) => Object.values(group) as AnyCheck[]);

const catalogs = new WeakMap<object, readonly AnyCheck[]>();

/**
 * The whole catalog of a run: the static checks, then one boundary check per constraint `contract` states
 * on a request (so another contract version brings its own). CHECKS.md is the bundled contract's.
 * @example catalogFor(contract).find((c) => c.id === 'boundary.limit-maximum')?.description
 */
export function catalogFor(contract: Contract): readonly AnyCheck[] {
  let found = catalogs.get(contract.document);
  if (!found) {
    const order = Object.keys(CHECK_AREAS);
    const all = [...staticCatalog, ...boundaryRules(contract).map(boundaryCheck)];
    // Grouped by area, as CHECKS.md, the report and JUnit show them (a stable sort keeps each area's order).
    found = all.sort((a, b) => order.indexOf(a.area) - order.indexOf(b.area));
    catalogs.set(contract.document, found);
  }
  return found;
}
