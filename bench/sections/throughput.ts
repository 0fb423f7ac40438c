import { type LoadResult, measure } from '../lib/load.js';
import { fmt, ratio, type Table } from '../lib/report.js';
import { KEY_HEADERS, startAll, startMinimalExpress, startPrism, startReference, type Target } from '../lib/targets.js';

/** Requests/s and latency of reads and a 401: ours vs Prism vs a bare Express app, 10k documents stored. */
export async function throughput({ dataDir, durationSec }: { dataDir: string; durationSec: number }): Promise<Table[]> {
  const [ours, prism, bare] = await startAll([
    () => startReference(dataDir, ['--processing-delay-ms', '0']),
    startPrism,
    startMinimalExpress,
  ]);
  const targets = [ours, prism, bare];
  const scenarios = [
    { name: 'GET list (limit 20)', path: () => '/api/v1/documents/get_documents?limit=20', headers: KEY_HEADERS, status: 200 },
    {
      name: 'GET one document',
      path: (t: Target) => `/api/v1/documents/get_document/${t === ours ? 5000 : 42}`,
      headers: KEY_HEADERS,
      status: 200,
    },
    { name: '401 (no key)', path: () => '/api/v1/documents/get_documents', headers: {}, status: 401 },
  ];
  const rows: Table['rows'] = [];
  try {
    for (const scenario of scenarios) {
      const results = new Map<Target, LoadResult>();
      for (const target of targets) {
        results.set(
          target,
          await measure({
            url: target.baseUrl + scenario.path(target),
            headers: scenario.headers,
            expectStatus: scenario.status,
            durationSec,
          }),
        );
      }
      const [o, p, b] = targets.map((t) => results.get(t)!);
      rows.push([
        scenario.name,
        fmt(o!.requestsPerSec, 0),
        fmt(p!.requestsPerSec, 0),
        fmt(b!.requestsPerSec, 0),
        `**${ratio(o!.requestsPerSec, p!.requestsPerSec)}**`,
        `**${ratio(o!.requestsPerSec, b!.requestsPerSec)}**`,
        `${o!.p99Ms} / ${p!.p99Ms} / ${b!.p99Ms}`,
        `${o!.unexpected} / ${p!.unexpected} / ${b!.unexpected}`,
      ]);
    }
    const rss = await Promise.all(targets.map((t) => t.peakRssMiB()));
    return [
      {
        title: 'Throughput: ours vs Prism vs bare Express (10,000 documents stored)',
        note: `autocannon, 10 connections, ${durationSec} s per cell, one process per server on loopback. Targets: >= 2x Prism with a lower p99; >= 0.8x bare Express. Peak RSS after the runs: ours ${rss[0]} MiB, Prism ${rss[1]} MiB, bare Express ${rss[2]} MiB.`,
        head: [
          'scenario',
          'ours req/s',
          'Prism req/s',
          'Express req/s',
          'ours/Prism',
          'ours/Express',
          'p99 ms (ours / Prism / Express)',
          'unexpected answers',
        ],
        rows,
      },
    ];
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }
}
