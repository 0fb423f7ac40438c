import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyPatch } from './mutated-core.js';
import { DEFECT_SETS, judgeDefect } from './realistic-defects.js';

// The suite must catch every realistic defect of each set chosen blind, from the contract alone.
const root = fileURLToPath(new URL('../../../', import.meta.url));
describe.each(Object.values(DEFECT_SETS))('the full profile catches realistic defects: set $name', (set) => {
  it('has each defect where its text still is in the sources', () => {
    expect(set.defects.length).toBeGreaterThanOrEqual(set.size);
    // Read in place: a copy of the whole sources per defect is only needed to serve it.
    for (const defect of set.defects) {
      expect(defect.file.startsWith(set.sources), defect.id).toBe(true);
      applyPatch(readFileSync(`${root}${defect.file}`, 'utf8'), defect);
    }
  });

  it('passes the service without a defect, with the same settings', async () => {
    const run = await judgeDefect(set);
    expect(run.code, run.output).toBe(0);
  }, 300_000);

  it.each(set.defects)(
    '$id: fails at least one check',
    async (defect) => {
      const run = await judgeDefect(set, defect);
      expect({ code: run.code, failing: run.failed.length > 0 }, `${defect.breaks}\n${run.output}`).toEqual({ code: 1, failing: true });
    },
    300_000,
  );
});
