import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/contract.js';
import { catalogFor } from './checks/index.js';
import { renderChecksMarkdown } from './report/checks-md.js';

const catalog = catalogFor(await loadContract());

describe('CHECKS.md', () => {
  it('is what the catalog renders (regenerate: npx tsx conformance/scripts/write-checks-md.ts)', () => {
    const committed = readFileSync(new URL('./CHECKS.md', import.meta.url), 'utf8');
    expect(committed, 'conformance/CHECKS.md is stale: run npx tsx conformance/scripts/write-checks-md.ts').toBe(
      renderChecksMarkdown(catalog),
    );
  });

  it('lists every check id exactly once', () => {
    const ids = [...readFileSync(new URL('./CHECKS.md', import.meta.url), 'utf8').matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1]);
    expect(ids).toEqual(catalog.map((c) => c.id));
  });
});
