import { join } from 'node:path';
import { fmt, median, ratio, type Table } from '../lib/report.js';
import { startPrism, startReference } from '../lib/targets.js';

/** Spawn-to-first-200 of `docproc serve` (compiled, empty data dir) vs `prism mock`, median of runs. */
export async function coldStart({ workDir, runs }: { workDir: string; runs: number }): Promise<Table[]> {
  const ours: number[] = [];
  const prism: number[] = [];
  for (let i = 0; i < runs; i++) {
    const o = await startReference(join(workDir, `cold-${i}`));
    ours.push(o.startupMs);
    await o.stop();
    const p = await startPrism();
    prism.push(p.startupMs);
    await p.stop();
  }
  return [
    {
      title: 'Cold start: spawn to first answer',
      note: `Median of ${runs} runs. Ours: \`node bin/docproc.js serve\` on a fresh data dir until the list answers 200; Prism: \`prism mock\` until the list answers (401 without a key).`,
      head: ['server', 'median ms', 'runs ms', 'ours / Prism'],
      rows: [
        ['docproc serve', fmt(median(ours), 0), ours.join(', '), ratio(median(ours), median(prism))],
        ['prism mock', fmt(median(prism), 0), prism.join(', '), ''],
      ],
    },
  ];
}
