import { authChecks, tenancyChecks } from './auth.js';
import type { Check } from './define.js';
import { getChecks, lifecycleChecks, retryChecks } from './document.js';
import { idempotencyChecks } from './idempotency.js';
import { listChecks } from './list.js';
import { modelChecks } from './model.js';
import { raceChecks } from './races.js';
import { responseChecks } from './response.js';
import { robustnessChecks } from './robustness.js';
import { uploadChecks, validationChecks } from './upload.js';

export type { Area, Check, Profile } from './define.js';
export { profileIncludes } from './define.js';

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
  races: raceChecks,
} as const;

/** The whole catalog in a stable order (CHECKS.md, the report). */
export const catalog: readonly Check[] = Object.values(checks).flatMap((group) => Object.values(group) as Check[]);

/** The check with this id, or undefined. */
export function checkById(id: string): Check | undefined {
  return catalog.find((c) => c.id === id);
}
