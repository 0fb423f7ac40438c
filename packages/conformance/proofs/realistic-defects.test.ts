import { describe, expect, it } from 'vitest';
import { mutatedCopy } from './mutated-core.js';
import { judgeDefect, REALISTIC_DEFECTS } from './realistic-defects.js';

// The suite must catch nearly every realistic defect of a set chosen blind, from the contract alone.
describe('the full profile catches realistic defects of the reference core', () => {
  it('has each defect where its text still is in the core', () => {
    expect(REALISTIC_DEFECTS.length).toBeGreaterThanOrEqual(30);
    for (const defect of REALISTIC_DEFECTS) mutatedCopy(defect).remove();
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
