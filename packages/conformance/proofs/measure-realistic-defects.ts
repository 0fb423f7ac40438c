// One-off: judges a service with each realistic defect of its set (two at a time) and prints, per defect, the
// checks that caught it or MISSED. `node --conditions=docproc-source --import tsx
// packages/conformance/proofs/measure-realistic-defects.ts [--set core|clean-room|clean-room-2] [--out results.json]
// [--thorough] [--seed n] [id ...]`; `baseline` as an id judges the service without a defect.
import { writeFileSync } from 'node:fs';
import { DEFECT_SETS, judgeDefect, type RealisticDefect } from './realistic-defects.js';

const argv = process.argv.slice(2);
const outAt = argv.indexOf('--out');
const out = outAt >= 0 ? argv[outAt + 1] : undefined;
const seedAt = argv.indexOf('--seed');
const setAt = argv.indexOf('--set');
const setName = setAt >= 0 ? argv[setAt + 1]! : 'core';
if (!(setName in DEFECT_SETS)) throw new Error(`--set is one of ${Object.keys(DEFECT_SETS).join(', ')}`);
const set = DEFECT_SETS[setName as keyof typeof DEFECT_SETS];
// A later --seed wins over the set's fixed one.
const extra = [...(argv.includes('--thorough') ? ['--thorough'] : []), ...(seedAt >= 0 ? ['--seed', argv[seedAt + 1]!] : [])];
const valueAt = new Set([outAt, seedAt, setAt].filter((i) => i >= 0).map((i) => i + 1));
const ids = argv.filter((a, i) => !a.startsWith('--') && !valueAt.has(i));
function byId(id: string): RealisticDefect | undefined {
  if (id === 'baseline') return undefined;
  const defect = set.defects.find((d) => d.id === id);
  if (!defect) throw new Error(`no defect ${id}`);
  return defect;
}
const picked: Array<RealisticDefect | undefined> = ids.length ? ids.map(byId) : set.defects;

const results: Array<{ id: string; code: number | null; failed: string[] }> = [];
let next = 0;
async function worker() {
  while (next < picked.length) {
    const defect = picked[next++];
    const id = defect?.id ?? 'baseline';
    const started = Date.now();
    const run = await judgeDefect(set, defect, extra);
    results.push({ id, code: run.code, failed: run.failed });
    const caughtBy = run.code === 1 && run.failed.length > 0 ? `caught by ${run.failed.join(', ')}` : `MISSED (exit ${run.code})`;
    const verdict = defect ? caughtBy : `exit ${run.code}, failing: ${run.failed.join(', ') || 'none'}`;
    console.log(`${id}: ${verdict} [${Math.round((Date.now() - started) / 1000)} s]`);
    if (run.code !== 0 && run.code !== 1) console.log(run.output.slice(-2000));
  }
}
await Promise.all([worker(), worker()]);
const caught = results.filter((r) => r.id !== 'baseline' && r.code === 1 && r.failed.length > 0).length;
console.log(`caught ${caught} of ${results.filter((r) => r.id !== 'baseline').length}`);
if (out) writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
