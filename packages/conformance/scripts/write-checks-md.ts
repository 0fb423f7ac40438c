// Regenerates packages/conformance/CHECKS.md from the check catalog, the contract's rules and the mutants
// (test/checks-md.test.ts fails when it is stale).
// Usage: npx tsx --conditions=docproc-source packages/conformance/scripts/write-checks-md.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderChecksMarkdown } from '../src/report/checks-md.js';
import { bundledMatrix } from './bundled-matrix.js';

const { catalog, matrix, proofs, trace } = await bundledMatrix();
const target = fileURLToPath(new URL('../CHECKS.md', import.meta.url));
writeFileSync(target, renderChecksMarkdown(catalog, matrix, proofs, trace));
console.log(`wrote ${target} (${catalog.length} checks, ${matrix.length} rules, ${matrix.filter((r) => r.gap).length} gaps)`);
