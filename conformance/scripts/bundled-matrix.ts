// Dev-only (CHECKS.md and rules.test.ts; not shipped): the bundled contract's rule matrix with every mutant of the project.

import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { loadContract } from '../../src/contract/contract.js';
import { bundledSpecPath } from '../../src/paths.js';
import { catalogFor } from '../checks/index.js';
import { proofsOf } from '../proofs/mutant-catalog.js';
import { contractRules } from '../rules/index.js';
import { ruleMatrix } from '../rules/matrix.js';

/**
 * Everything CHECKS.md shows, for the bundled contract.
 * @example const { catalog, matrix, proofs } = await bundledMatrix();
 */
export async function bundledMatrix() {
  const catalog = catalogFor(await loadContract());
  const document = load(readFileSync(bundledSpecPath, 'utf8')) as Record<string, unknown>;
  const rules = contractRules(document);
  const proofs = proofsOf();
  return { document, catalog, rules, proofs, matrix: ruleMatrix(rules, catalog, proofs) };
}
