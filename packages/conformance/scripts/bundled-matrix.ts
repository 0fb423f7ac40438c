// Dev-only (CHECKS.md and rules.test.ts; not shipped): the bundled contract's rule matrix with every mutant of the project.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { contractSentences } from '@docproc-kit/contract/contract-text.js';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { load } from 'js-yaml';
import { proofsOf } from '../proofs/mutant-catalog.js';
import { catalogFor } from '../src/checks/index.js';
import { contractRules } from '../src/rules/index.js';
import { ruleMatrix } from '../src/rules/matrix.js';
import { proseRules } from '../src/rules/prose.js';
import { clausesOf, parseSentenceBaseline, type SentenceTrace, untracedClauses } from '../src/rules/sentences.js';

/**
 * Everything CHECKS.md shows, for the bundled contract.
 * @example const { catalog, matrix, proofs } = await bundledMatrix();
 */
export async function bundledMatrix() {
  const catalog = catalogFor(await loadContract());
  const document = load(readFileSync(bundledSpecPath, 'utf8')) as Record<string, unknown>;
  const rules = contractRules(document);
  const proofs = proofsOf();
  const sentences = contractSentences(document);
  const clauses = sentences.reduce((n, s) => n + clausesOf(s.sentence).length, 0);
  const trace: SentenceTrace = {
    total: sentences.length,
    clauses,
    quoted: clauses - sentences.reduce((n, s) => n + untracedClauses(s, proseRules).length, 0),
    listed: parseSentenceBaseline(readFileSync(fileURLToPath(new URL('../src/rules/sentences-baseline.txt', import.meta.url)), 'utf8')),
  };
  return { document, catalog, rules, proofs, matrix: ruleMatrix(rules, catalog, proofs), sentences, trace };
}
