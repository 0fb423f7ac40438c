import { join } from 'node:path';
import { startNginx } from '@docproc-kit/test-support/nginx.js';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { measure } from '../lib/load.js';
import { seedPostgres } from '../lib/postgres.js';
import { fmt, percentile, ratio, type Table } from '../lib/report.js';
import { SEED_WORD, seedStore } from '../lib/seed.js';
import { KEY_HEADERS, startReference, type Target } from '../lib/targets.js';

const UPLOADS = 40;
const pdf = new Blob([new TextEncoder().encode('%PDF-1.4\n% scale benchmark\n%%EOF\n')], { type: 'application/pdf' });

/** What one server measured at one size. */
interface Measured {
  firstSearchMs: number;
  uploads: number[];
  list: Awaited<ReturnType<typeof measure>>;
  search: Awaited<ReturnType<typeof measure>>;
}

// The first content search, then sequential uploads (each one's latency is the cost of one durable write
// at this size), then list and content search under load.
async function measureServer(server: Target, size: number, durationSec: number): Promise<Measured> {
  const firstSearchStarted = performance.now();
  const first = await fetch(`${server.baseUrl}/api/v1/documents/get_documents?search=${SEED_WORD}`, { headers: KEY_HEADERS });
  const { pagination } = (await first.json()) as { pagination: { total: number } };
  const firstSearchMs = performance.now() - firstSearchStarted;
  if (pagination.total !== Math.ceil(size / 1000)) throw new Error(`search found ${pagination.total} of ${Math.ceil(size / 1000)}`);
  const uploads: number[] = [];
  for (let i = 0; i < UPLOADS; i++) {
    const form = new FormData();
    form.append('files[]', pdf, `scale-${i}.pdf`);
    const started = performance.now();
    const res = await fetch(`${server.baseUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: KEY_HEADERS, body: form });
    await res.arrayBuffer();
    if (res.status !== 202) throw new Error(`upload answered ${res.status}`);
    uploads.push(performance.now() - started);
  }
  const load = (path: string) =>
    measure({ url: `${server.baseUrl}${path}`, headers: KEY_HEADERS, expectStatus: 200, durationSec, connections: 4 });
  const list = await load('/api/v1/documents/get_documents?limit=20');
  const search = await load(`/api/v1/documents/get_documents?search=${SEED_WORD}`);
  return { firstSearchMs, uploads, list, search };
}

const latency = (r: { requestsPerSec: number; p50Ms: number; p99Ms: number }) => `${fmt(r.requestsPerSec, 0)} (${r.p50Ms} / ${r.p99Ms})`;

/** Upload, list and content-search latency and start-up time with 1k, 10k and 100k documents stored. */
export async function scale({ workDir, sizes, durationSec }: { workDir: string; sizes: number[]; durationSec: number }): Promise<Table[]> {
  const rows: Table['rows'] = [];
  const pgRows: Table['rows'] = [];
  const replicaRows: Table['rows'] = [];
  const uploadP50: number[] = [];
  let cluster: PostgresCluster | undefined;
  let pgMissing = '';
  try {
    cluster = await startPostgres();
  } catch (error) {
    pgMissing = `PostgreSQL columns left out: ${(error as Error).message}`;
  }
  try {
    for (const size of sizes) {
      const dataDir = join(workDir, `scale-${size}`);
      const seedStarted = performance.now();
      await seedStore(dataDir, size);
      const seedSec = (performance.now() - seedStarted) / 1000;
      const server = await startReference(dataDir, ['--processing-delay-ms', '0']);
      let lowdb: Measured;
      try {
        lowdb = await measureServer(server, size, durationSec);
        uploadP50.push(percentile(lowdb.uploads, 50));
        rows.push([
          size.toLocaleString('en'),
          fmt(seedSec, 1),
          server.startupMs,
          fmt(lowdb.firstSearchMs, 0),
          `${fmt(percentile(lowdb.uploads, 50))} / ${fmt(percentile(lowdb.uploads, 99))}`,
          latency(lowdb.list),
          latency(lowdb.search),
          fmt(await server.peakRssMiB(), 0),
        ]);
      } finally {
        await server.stop();
      }
      if (!cluster) continue;
      const url = await cluster.createDatabase(`scale_${size}`);
      const pgSeedStarted = performance.now();
      await seedPostgres(url, size);
      const pgSeedSec = (performance.now() - pgSeedStarted) / 1000;
      const scratch = (name: string) => join(workDir, `pg-${size}-${name}`);
      const replica = () =>
        startReference(scratch(`r${Math.random().toString(36).slice(2)}`), ['--processing-delay-ms', '0', '--database-url', url]);
      const one = await replica();
      try {
        const pg = await measureServer(one, size, durationSec);
        pgRows.push([
          size.toLocaleString('en'),
          fmt(pgSeedSec, 1),
          one.startupMs,
          fmt(pg.firstSearchMs, 0),
          `${fmt(percentile(pg.uploads, 50))} / ${fmt(percentile(pg.uploads, 99))}`,
          latency(pg.list),
          latency(pg.search),
          `**${ratio(pg.search.requestsPerSec, lowdb.search.requestsPerSec)}**`,
          fmt(await one.peakRssMiB(), 0),
        ]);
        if (size === sizes.at(-1)) replicaRows.push(...(await replicasAt(one, replica, durationSec)));
      } finally {
        await one.stop();
      }
    }
  } finally {
    await cluster?.stop();
  }
  const growth =
    uploadP50.length > 1
      ? `Upload p50 at ${sizes.at(-1)!.toLocaleString('en')} is ${(uploadP50.at(-1)! / uploadP50[0]!).toFixed(2)}x the p50 at ${sizes[0]!.toLocaleString('en')} (target <= 3x).`
      : '';
  const largest = sizes.at(-1)!.toLocaleString('en');
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
    {
      title: 'Scale on PostgreSQL: the same documents, one replica (`--database-url`)',
      note:
        pgMissing ||
        `The same documents as above, seeded by SQL in the store's format (then VACUUM ANALYZE, as autovacuum keeps it), on a throwaway PostgreSQL cluster of this machine (fsync off, as the tests run it). The same ${UPLOADS} sequential uploads, list and content search as the lowdb rows, in the same run; the last column is this content search's req/s over lowdb's at the same size (target at 100,000: >= 20x, p99 < 50 ms).`,
      head: [
        'stored',
        'seed s',
        'start-up ms',
        'first content search ms',
        'upload ms p50 / p99',
        'list page req/s (p50 / p99 ms)',
        'content search req/s (p50 / p99 ms)',
        'content search PostgreSQL / lowdb',
        'peak RSS MiB',
      ],
      rows: pgRows,
    },
    ...(replicaRows.length > 0
      ? [
          {
            title: `Replicas on PostgreSQL: list and read at ${largest} documents`,
            note: `autocannon, 10 connections, ${durationSec} s, through a real nginx balancing request by request (test/support/nginx.ts) in front of one and then two replicas, on this 2-core machine that also runs PostgreSQL, nginx and the load generator.`,
            head: ['request', '1 replica req/s (p50 / p99 ms)', '2 replicas req/s (p50 / p99 ms)', '2 / 1'],
            rows: replicaRows,
          },
        ]
      : []),
  ];
}

// List and read through nginx over one replica, then over two.
async function replicasAt(one: Target, startAnother: () => Promise<Target>, durationSec: number): Promise<Table['rows']> {
  const paths = [
    ['GET list (limit 20)', '/api/v1/documents/get_documents?limit=20'],
    ['GET one document', '/api/v1/documents/get_document/1'],
  ] as const;
  const through = async (targets: Target[]) => {
    const balancer = await startNginx(targets.map((t) => t.baseUrl.replace('http://', '')));
    try {
      const results = [];
      for (const [, path] of paths)
        results.push(
          await measure({ url: `${balancer.baseUrl}${path}`, headers: KEY_HEADERS, expectStatus: 200, durationSec, connections: 10 }),
        );
      return results;
    } finally {
      await balancer.stop();
    }
  };
  const single = await through([one]);
  const two = await startAnother();
  try {
    const double = await through([one, two]);
    return paths.map(([name], i) => [
      name,
      latency(single[i]!),
      latency(double[i]!),
      ratio(double[i]!.requestsPerSec, single[i]!.requestsPerSec),
    ]);
  } finally {
    await two.stop();
  }
}
