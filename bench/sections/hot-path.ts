import { cp } from 'node:fs/promises';
import { type LoadResult, measure } from '../lib/load.js';
import { fmt, median, ratio, type Table } from '../lib/report.js';
import { seedStore } from '../lib/seed.js';
import { KEY_HEADERS, startAll, startMinimalExpress, startPrism, startReference, type Target } from '../lib/targets.js';
import { hasWrk, wrk } from '../lib/wrk.js';

const STORED = 500;
const CONNECTIONS = 50;

/**
 * The hot path: list and read, ours vs Prism vs a bare Express app, 500 documents stored, 50 connections,
 * in alternating rounds (ours, Prism, Express, then again) so a noisy minute hits all three alike; each
 * cell is the median over the rounds. wrk when installed (a C load generator on one core), else autocannon.
 */
export async function hotPath({
  workDir,
  rounds,
  seconds,
  baseline,
}: {
  workDir: string;
  rounds: number;
  seconds: number;
  /** Another checkout of the kit (built), measured beside ours: before vs after in one run. */
  baseline?: string;
}): Promise<Table[]> {
  const dataDir = `${workDir}/hot-path`;
  await seedStore(dataDir, STORED);
  // A baseline reads a copy of the same documents (a data dir has one server at a time).
  const baselineDir = `${workDir}/hot-path-baseline`;
  if (baseline) await cp(dataDir, baselineDir, { recursive: true });
  const [ours, prism, bare, before] = await startAll([
    () => startReference(dataDir, ['--processing-delay-ms', '0']),
    startPrism,
    startMinimalExpress,
    ...(baseline ? [() => startReference(baselineDir, ['--processing-delay-ms', '0'], [], baseline)] : []),
  ]);
  const targets = [ours, prism, bare, ...(before ? [before] : [])];
  const useWrk = hasWrk();
  const load = async (url: string): Promise<{ requestsPerSec: number; p99Ms: number; errors: number }> => {
    if (useWrk) return wrk(url, KEY_HEADERS, { connections: CONNECTIONS, seconds });
    const result: LoadResult = await measure({
      url,
      headers: KEY_HEADERS,
      expectStatus: 200,
      connections: CONNECTIONS,
      durationSec: seconds,
    });
    return { requestsPerSec: result.requestsPerSec, p99Ms: result.p99Ms, errors: result.unexpected };
  };
  const scenarios = [
    { name: 'GET list (limit 20)', path: () => '/api/v1/documents/get_documents?limit=20' },
    { name: 'GET one document', path: (t: Target) => `/api/v1/documents/get_document/${t === ours ? STORED / 2 : 42}` },
  ];
  const rows: Table['rows'] = [];
  try {
    for (const scenario of scenarios) {
      const runs = new Map<Target, Array<{ requestsPerSec: number; p99Ms: number; errors: number }>>(targets.map((t) => [t, []]));
      for (let round = 0; round < rounds; round++) {
        for (const target of targets) runs.get(target)!.push(await load(target.baseUrl + scenario.path(target)));
      }
      const rps = (t: Target) => median(runs.get(t)!.map((r) => r.requestsPerSec));
      const p99 = (t: Target) => median(runs.get(t)!.map((r) => r.p99Ms));
      const errors = (t: Target) => runs.get(t)!.reduce((sum, r) => sum + r.errors, 0);
      rows.push([
        scenario.name,
        fmt(rps(ours), 0),
        fmt(rps(prism), 0),
        fmt(rps(bare), 0),
        `**${ratio(rps(ours), rps(prism))}**`,
        `**${ratio(rps(ours), rps(bare))}**`,
        `${fmt(p99(ours))} / ${fmt(p99(prism))} / ${fmt(p99(bare))}`,
        ...(before ? [fmt(rps(before), 0), `${ratio(rps(before), rps(prism))} / ${ratio(rps(before), rps(bare))}`, fmt(p99(before))] : []),
        targets.map(errors).join(' / '),
      ]);
    }
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
  return [
    {
      title: `Hot path: ours vs Prism vs bare Express (${STORED} documents stored, ${CONNECTIONS} connections)`,
      note:
        `${useWrk ? 'wrk -t1' : 'autocannon (wrk is not installed)'}, ${CONNECTIONS} connections, ${seconds} s per run, ${rounds} alternating rounds ` +
        '(ours, Prism, Express, again); each cell is the median over the rounds. Targets: >= 3x Prism, a median p99 no worse than ' +
        `Prism's, >= 0.8x bare Express.${before ? ` "Before" is the build of ${baseline} on a copy of the same documents, in the same rounds.` : ''}`,
      head: [
        'scenario',
        'ours req/s',
        'Prism req/s',
        'Express req/s',
        'ours/Prism',
        'ours/Express',
        'median p99 ms (ours / Prism / Express)',
        ...(before ? ['before req/s', 'before/Prism / before/Express', 'before median p99 ms'] : []),
        `errors (${targets.map((t) => (t === ours ? 'ours' : t === prism ? 'Prism' : t === bare ? 'Express' : 'before')).join(' / ')})`,
      ],
      rows,
    },
  ];
}
