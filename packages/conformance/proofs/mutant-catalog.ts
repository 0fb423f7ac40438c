// Test-only: every mutant of the project, and the suite runs that prove them (a mutant alone, or a group
// of mutants behind one proxy). A new mutants file adds its list to `allMutants`.

import { composeMutations, type Mutation } from '@docproc-kit/test-support/mutation-proxy.js';
import type { ConformanceOptions } from '../src/definitions/config.js';
import type { Proofs } from '../src/rules/matrix.js';
import { type Mutant, mutants } from './mutants.js';
import { clientInputMutants } from './mutants-client-inputs.js';
import { contractMutants } from './mutants-contract.js';
import { multipartMutants } from './mutants-multipart.js';
import { oracleMutants } from './mutants-oracle.js';
import { requestIdMutants } from './mutants-request-ids.js';
import { runTimeMutants } from './mutants-run-times.js';
import { statefulMutants } from './mutants-stateful.js';

/** Every mutant, each with the checks it must fail. */
export const allMutants: readonly Mutant[] = [
  ...mutants,
  ...contractMutants,
  ...statefulMutants,
  ...oracleMutants,
  ...multipartMutants,
  ...clientInputMutants,
  ...requestIdMutants,
  ...runTimeMutants,
];

type Keys = { primary: string; secondary: string };

/** One suite run against one proxy: its failed checks must be exactly `fails`. */
export interface MutantRun {
  name: string;
  members: Mutant[];
  only: string[];
  fails: string[];
  mentions: string[];
  notPassed: string[];
  options: (keys: Keys) => Partial<ConformanceOptions>;
  mutation: (keys: Keys) => Mutation;
}

function merged(members: Mutant[], keys: Keys): Partial<ConformanceOptions> {
  const out: Record<string, unknown> = {};
  for (const m of members)
    for (const [k, v] of Object.entries(m.options?.(keys) ?? {})) {
      if (k in out && out[k] !== v) throw new Error(`mutants of group ${m.group} disagree on option ${k}`);
      out[k] = v;
    }
  return out as Partial<ConformanceOptions>;
}

/**
 * The runs that prove `list`: each ungrouped mutant alone, each group together.
 * @example for (const run of mutantRuns()) await pool.run({ baseUrl, apiKey, only: run.only, ...run.options(keys) });
 */
export function mutantRuns(list: readonly Mutant[] = allMutants): MutantRun[] {
  const groups = new Map<string, Mutant[]>();
  for (const m of list) {
    const key = m.group ?? `:${m.name}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.entries()].map(([key, members]) => {
    const fails = [...new Set(members.flatMap((m) => m.fails))].sort();
    const overlap = members.flatMap((m) => m.fails).length !== fails.length;
    if (overlap) throw new Error(`mutants of group ${key} fail the same check: they would not prove it each`);
    return {
      name: key.startsWith(':') ? members[0]!.name : `group ${key}: ${members.map((m) => m.name).join(', ')}`,
      members,
      only: [...new Set(members.flatMap((m) => m.only))],
      fails,
      mentions: members.flatMap((m) => (m.mentions ? [m.mentions] : [])),
      notPassed: members.flatMap((m) => m.notPassed ?? []),
      options: (keys) => merged(members, keys),
      mutation: (keys) => (members.length === 1 ? members[0]!.mutation(keys) : composeMutations(members.map((m) => m.mutation(keys)))),
    };
  });
}

/** Checks whose failures a unit test proves on hand-made responses (no mutant needed), and where. */
export const provenByUnitTests: ReadonlyMap<string, string> = new Map([
  ['response.content-type-documented', 'packages/conformance/src/checks/response.test.ts'],
  ['response.error-code-documented', 'packages/conformance/src/checks/response.test.ts'],
  ['response.request-id-echoed', 'packages/conformance/src/checks/response.test.ts'],
]);

/**
 * What proves each check: the mutants that fail it and the unit tests (the rule matrix's last column).
 * @example proofsOf().mutants.get('list.status-filter') // ['status-filter-ignored', ...]
 */
export function proofsOf(list: readonly Mutant[] = allMutants): Proofs {
  const mutants = new Map<string, string[]>();
  for (const m of list) for (const id of m.fails) mutants.set(id, [...(mutants.get(id) ?? []), m.name]);
  const rulesOf = new Map(list.flatMap((m) => (m.rules ? [[m.name, m.rules] as const] : [])));
  return { mutants, unitTests: provenByUnitTests, rulesOf };
}
