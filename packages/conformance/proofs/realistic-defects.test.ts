import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyPatch } from './mutated-core.js';
import { judgeDefect, REALISTIC_DEFECTS } from './realistic-defects.js';

// The suite must catch every realistic defect of a set chosen blind, from the contract alone.
const root = fileURLToPath(new URL('../../../', import.meta.url));
describe('the full profile catches realistic defects of the reference core', () => {
  it('has each defect where its text still is in the core', () => {
    expect(REALISTIC_DEFECTS.length).toBeGreaterThanOrEqual(30);
    // Read in place: a copy of the whole core per defect is only needed to serve it.
    for (const defect of REALISTIC_DEFECTS) applyPatch(readFileSync(`${root}${defect.file}`, 'utf8'), defect);
  });

  it('passes the core without a defect, with the same settings', async () => {
    const run = await judgeDefect();
    expect(run.code, run.output).toBe(0);
  }, 300_000);

  it.each(REALISTIC_DEFECTS)(
    '$id: fails at least one check',
    async (defect) => {
      const run = await judgeDefect(defect);
      expect({ code: run.code, failing: run.failed.length > 0 }, `${defect.breaks}\n${run.output}`).toEqual({ code: 1, failing: true });
    },
    300_000,
  );
});
