/**
 * The areas of the conformance catalogue, each with the title CHECKS.md gives it, in catalogue order. The
 * one list of areas: check ids start with one, and the scenario areas name the suite's files.
 */
export const CHECK_AREAS = {
  response: 'Every response',
  auth: 'Authentication',
  tenancy: 'Tenant isolation',
  validation: 'Validation errors',
  boundary: 'Boundaries derived from the contract (generated from the contract the run judges against)',
  upload: 'Upload (`uploadDocuments`)',
  list: 'List, filter and search (`listDocuments`)',
  get: 'Read one document (`getDocument`)',
  retry: 'Retry processing (`retryDocument`)',
  lifecycle: 'Processing lifecycle',
  robustness: 'Robustness',
  model: 'Stateful model run',
  oracle: 'The reference core as an oracle (a differential run)',
} as const;

/** An area of the catalogue. */
export type CheckArea = keyof typeof CHECK_AREAS;

/**
 * The areas that have scenario files (`src/scenarios/<area>[-*].suite.ts`), selectable with `--only`;
 * `response` and `validation` checks run inside all of them.
 */
export const SCENARIO_AREAS = [
  'auth',
  'tenancy',
  'boundary',
  'upload',
  'list',
  'get',
  'retry',
  'lifecycle',
  'robustness',
  'model',
  'oracle',
] as const satisfies readonly CheckArea[];
