import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledMatrix } from '../scripts/bundled-matrix.js';
import { renderChecksMarkdown } from '../src/report/checks-md.js';

const { catalog, matrix, proofs, trace } = await bundledMatrix();

describe('CHECKS.md', () => {
  it('is what the catalog, the rules and the mutants render (regenerate: npx tsx --conditions=docproc-source packages/conformance/scripts/write-checks-md.ts)', () => {
    const committed = readFileSync(new URL('../CHECKS.md', import.meta.url), 'utf8');
    expect(
      committed,
      'packages/conformance/CHECKS.md is stale: run npx tsx --conditions=docproc-source packages/conformance/scripts/write-checks-md.ts',
    ).toBe(renderChecksMarkdown(catalog, matrix, proofs, trace));
  });

  it('lists every check id exactly once', () => {
    const ids = [
      ...readFileSync(new URL('../CHECKS.md', import.meta.url), 'utf8').matchAll(/^\| `([a-z]+\.[a-z0-9-]+)` \| (contract|full) \|/gm),
    ].map((m) => m[1]);
    expect(ids).toEqual(catalog.map((c) => c.id));
  });
});
