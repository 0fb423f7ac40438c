import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HostileLoadResult, hostileLoad, hostilePdfs } from '@docproc-kit/test-support/hostile-load.js';
import { fmt, type Table } from '../lib/report.js';
import { docprocBin, spawnTarget } from '../lib/targets.js';

const KEYS: [string, string, string] = ['hostile-one', 'hostile-two', 'bystander'];

async function measure(bin: string, dataDir: string, files: Awaited<ReturnType<typeof hostilePdfs>>): Promise<HostileLoadResult> {
  const keyArgs = KEYS.flatMap((key) => ['--api-key', key]);
  const target = await spawnTarget(
    'docproc serve',
    [bin, 'serve', '--data-dir', dataDir, '--processing-delay-ms', '0', '--log-level', 'warn', ...keyArgs],
    { readyPath: '/api/v1/documents/get_documents', readyStatus: 200, headers: { 'x-api-key': KEYS[2] } },
  );
  try {
    return await hostileLoad({ baseUrl: target.baseUrl, pid: target.pid, keys: KEYS, files, deadlineMs: 300_000 });
  } finally {
    await target.stop();
  }
}

/**
 * Hostile PDFs (a 2 GiB flate bomb, 499 drawn pages, 40 pages of 5000 x 5000 pt) uploaded
 * at once by two tenants to `docproc serve` with its default limits, while a third tenant lists: the
 * peak of the server's whole process tree (RSS summed over it and every descendant, from /proc every
 * 50 ms), when the last document ended, and the bystander's list latency. With `baseline` (another
 * checkout of the kit, built: an older commit, say) that build is measured first, in the same run.
 */
export async function hostileMemory({ workDir, baseline }: { workDir: string; baseline?: string }): Promise<Table[]> {
  const ours = fileURLToPath(new URL('../../packages/docproc-kit/bin/docproc.js', import.meta.url));
  const servers: Array<[string, string]> = baseline
    ? [
        ['baseline', docprocBin(baseline)],
        ['this checkout', ours],
      ]
    : [['this checkout', ours]];
  const files = await hostilePdfs();
  const outcome = (d: HostileLoadResult['documents'][number]) =>
    `${d.filename}: ${d.status}${d.error ? ` (${d.error.message.replace(/\|/g, '/')})` : ''}`;
  const rows: Table['rows'] = [];
  let samples = 0;
  for (const [name, bin] of servers) {
    const result = await measure(bin, join(workDir, `hostile-memory-${rows.length}`), files);
    samples = Math.max(samples, result.samples);
    rows.push([
      `${name} (\`${bin}\`)`,
      fmt(result.peakTreeBytes / 2 ** 20, 0),
      result.settledAfterMs === undefined ? 'not within 300 s' : fmt(result.settledAfterMs / 1000, 0),
      `${result.lists.p99Ms} / ${result.lists.maxMs}`,
      result.documents.map(outcome).join('<br>'),
    ]);
  }
  return [
    {
      title: 'Memory: hostile PDFs from two tenants at once',
      note:
        '`docproc serve` with its default limits, processing delay 0. Each of two tenants uploads three hostile files in one request ' +
        `(${files.map((f) => `${f.name} ${fmt(f.bytes.length / 1024, 0)} KB`).join(', ')}) while a third lists back to back; ` +
        `the process tree's summed RSS read from /proc every 50 ms (up to ${samples} samples a run).`,
      head: ['server', 'peak process-tree RSS MiB', 'last document ended after s', 'bystander list p99 / max ms', 'documents'],
      rows,
    },
  ];
}
