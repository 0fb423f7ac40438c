import { join } from 'node:path';
import { measure } from '../lib/load.js';
import { fmt, percentile, type Table } from '../lib/report.js';
import { SEED_WORD, seedStore } from '../lib/seed.js';
import { KEY_HEADERS, startReference } from '../lib/targets.js';

const UPLOADS = 40;

/** Upload, list and content-search latency and start-up time with 1k, 10k and 100k documents stored. */
export async function scale({ workDir, sizes, durationSec }: { workDir: string; sizes: number[]; durationSec: number }): Promise<Table[]> {
  const rows: Table['rows'] = [];
  const uploadP50: number[] = [];
  const pdf = new Blob([new TextEncoder().encode('%PDF-1.4\n% scale benchmark\n%%EOF\n')], { type: 'application/pdf' });
  for (const size of sizes) {
    const dataDir = join(workDir, `scale-${size}`);
    const seedStarted = performance.now();
    await seedStore(dataDir, size);
    const seedSec = (performance.now() - seedStarted) / 1000;
    const server = await startReference(dataDir, ['--processing-delay-ms', '0']);
    try {
      // The first content search waits for the texts that start-up loads in the background; after
      // it, the server is in its steady state, which is what the uploads below should measure.
      const firstSearchStarted = performance.now();
      const first = await fetch(`${server.baseUrl}/api/v1/documents/get_documents?search=${SEED_WORD}`, { headers: KEY_HEADERS });
      const { pagination } = (await first.json()) as { pagination: { total: number } };
      const firstSearchMs = performance.now() - firstSearchStarted;
      if (pagination.total !== Math.ceil(size / 1000)) throw new Error(`search found ${pagination.total} of ${Math.ceil(size / 1000)}`);
      // Sequential uploads: each one's latency is the cost of one durable write at this size.
      const latencies: number[] = [];
      for (let i = 0; i < UPLOADS; i++) {
        const form = new FormData();
        form.append('files[]', pdf, `scale-${i}.pdf`);
        const started = performance.now();
        const res = await fetch(`${server.baseUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: KEY_HEADERS, body: form });
        await res.arrayBuffer();
        if (res.status !== 202) throw new Error(`upload answered ${res.status}`);
        latencies.push(performance.now() - started);
      }
      uploadP50.push(percentile(latencies, 50));
      const list = await measure({
        url: `${server.baseUrl}/api/v1/documents/get_documents?limit=20`,
        headers: KEY_HEADERS,
        expectStatus: 200,
        durationSec,
        connections: 4,
      });
      const search = await measure({
        url: `${server.baseUrl}/api/v1/documents/get_documents?search=${SEED_WORD}`,
        headers: KEY_HEADERS,
        expectStatus: 200,
        durationSec,
        connections: 4,
      });
      rows.push([
        size.toLocaleString('en'),
        fmt(seedSec, 1),
        server.startupMs,
        fmt(firstSearchMs, 0),
        `${fmt(percentile(latencies, 50))} / ${fmt(percentile(latencies, 99))}`,
        `${fmt(list.requestsPerSec, 0)} (${list.p50Ms} / ${list.p99Ms})`,
        `${fmt(search.requestsPerSec, 0)} (${search.p50Ms} / ${search.p99Ms})`,
        fmt(await server.peakRssMiB(), 0),
      ]);
    } finally {
      await server.stop();
    }
  }
  const growth =
    uploadP50.length > 1
      ? `Upload p50 at ${sizes.at(-1)!.toLocaleString('en')} is ${(uploadP50.at(-1)! / uploadP50[0]!).toFixed(2)}x the p50 at ${sizes[0]!.toLocaleString('en')} (target <= 3x).`
      : '';
  return [
    {
      title: 'Scale: latency by number of stored documents',
      note: `Documents seeded through the store (every one completed, with ~600 characters of text; 1 in 1000 contains the searched word). After the first content search (which waits for the texts start-up loads in the background), ${UPLOADS} sequential single-file uploads; list and search by autocannon, 4 connections, ${durationSec} s. ${growth}`,
      head: [
        'stored',
        'seed s',
        'start-up ms',
        'first content search ms (waits for texts)',
        'upload ms p50 / p99',
        'list page req/s (p50 / p99 ms)',
        'content search req/s (p50 / p99 ms)',
        'peak RSS MiB',
      ],
      rows,
    },
  ];
}
