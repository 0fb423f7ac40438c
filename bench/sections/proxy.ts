import { openAsBlob } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure } from '../lib/load.js';
import { fmt, median, percentile, ratio, type Table } from '../lib/report.js';
import { seedStore } from '../lib/seed.js';
import { KEY_HEADERS, spawnTarget, startReference, type Target } from '../lib/targets.js';

const STORED = 500;
const CONNECTIONS = 10;
/** The open load: well below what either proxy can take on this machine, as a developer's traffic is. */
const RATE = 200;
const bin = fileURLToPath(new URL('../../packages/docproc-kit/bin/docproc.js', import.meta.url));

const startDocprocProxy = (target: string) =>
  spawnTarget('docproc proxy', [bin, 'proxy', '--target', target], { readyPath: '/_proxy/report', readyStatus: 200 });
const startBareProxy = (target: string) =>
  spawnTarget('bare proxy', [fileURLToPath(new URL('../bare-proxy.js', import.meta.url)), '--target', target], {
    readyPath: '/api/v1/documents/get_documents',
    readyStatus: 200,
    headers: KEY_HEADERS,
  });

/**
 * Latencies (ms, microsecond resolution) of GETs of `url` sent at `rate` per second for `seconds` over
 * keep-alive connections, each timed from its send to its answer's last byte (autocannon rounds to 1 ms).
 */
async function timedGets(url: string, rate: number, seconds: number): Promise<{ latencies: number[]; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const latencies: number[] = [];
  let errors = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = process.hrtime.bigint();
      const req = request(url, { headers: KEY_HEADERS, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          else errors += 1;
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end();
    });
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(one());
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { latencies, errors };
}

/** RSS growth of `proxy` (peak minus before) while one 200 MB PDF upload passes through it. */
async function uploadGrowth(proxy: Target, file: string): Promise<{ status: number; seconds: number; before: number; peak: number }> {
  const before = await proxy.rssMiB();
  const form = new FormData();
  form.append('files[]', await openAsBlob(file, { type: 'application/pdf' }), 'two-hundred-mb.pdf');
  const started = performance.now();
  const res = await fetch(`${proxy.baseUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: KEY_HEADERS, body: form });
  await res.arrayBuffer();
  return { status: res.status, seconds: (performance.now() - started) / 1000, before, peak: await proxy.peakRssMiB() };
}

/**
 * `docproc proxy` beside a bare pass-through proxy in front of the same reference server (500 documents):
 * p50 and p99 of list and read in alternating rounds (direct, bare, docproc), and each proxy's RSS growth
 * while a 200 MB upload passes through it.
 */
export async function proxy({ workDir, rounds, seconds }: { workDir: string; rounds: number; seconds: number }): Promise<Table[]> {
  const dataDir = join(workDir, 'proxy');
  await seedStore(dataDir, STORED);
  const server = await startReference(dataDir, [
    '--processing-delay-ms',
    '60000',
    '--max-file-bytes',
    String(300 * 1024 * 1024),
    '--log-level',
    'warn',
  ]);
  const started: Target[] = [server];
  const rows: Table['rows'] = [];
  const memory: Table['rows'] = [];
  try {
    const bare = await startBareProxy(server.baseUrl);
    started.push(bare);
    const judged = await startDocprocProxy(server.baseUrl);
    started.push(judged);
    const targets = [server, bare, judged];
    const scenarios = [
      { name: 'GET list (limit 20)', path: '/api/v1/documents/get_documents?limit=20' },
      { name: 'GET one document', path: `/api/v1/documents/get_document/${STORED / 2}` },
    ];
    for (const scenario of scenarios) {
      const runs = new Map<Target, Array<{ p50: number; p99: number; rps: number; errors: number }>>(targets.map((t) => [t, []]));
      for (let round = 0; round < rounds; round++)
        for (const target of targets) {
          const timed = await timedGets(target.baseUrl + scenario.path, RATE, seconds);
          const saturated = await measure({
            url: target.baseUrl + scenario.path,
            headers: KEY_HEADERS,
            expectStatus: 200,
            connections: CONNECTIONS,
            durationSec: seconds,
          });
          runs.get(target)!.push({
            p50: percentile(timed.latencies, 50),
            p99: percentile(timed.latencies, 99),
            rps: saturated.requestsPerSec,
            errors: timed.errors + saturated.unexpected,
          });
        }
      const m = (t: Target, k: 'p50' | 'p99' | 'rps') => median(runs.get(t)!.map((r) => r[k]));
      rows.push([
        scenario.name,
        `${fmt(m(server, 'p50'), 2)} / ${fmt(m(bare, 'p50'), 2)} / ${fmt(m(judged, 'p50'), 2)}`,
        `${fmt(m(server, 'p99'), 2)} / ${fmt(m(bare, 'p99'), 2)} / ${fmt(m(judged, 'p99'), 2)}`,
        `**${ratio(m(judged, 'p50'), m(bare, 'p50'))}**`,
        ratio(m(judged, 'p99'), m(bare, 'p99')),
        `${fmt(m(server, 'rps'), 0)} / ${fmt(m(bare, 'rps'), 0)} / ${fmt(m(judged, 'rps'), 0)}`,
        ratio(m(judged, 'rps'), m(bare, 'rps')),
        targets.map((t) => runs.get(t)!.reduce((sum, r) => sum + r.errors, 0)).join(' / '),
      ]);
    }
    const violations = (await (await fetch(`${judged.baseUrl}/_proxy/report`)).json()) as {
      exchanges: { judged: number };
      violations: { total: number };
    };
    rows.push([
      '(judged by docproc proxy)',
      `${violations.exchanges.judged} exchanges`,
      `${violations.violations.total} violations`,
      '',
      '',
      '',
      '',
    ]);

    // Fresh proxies for the upload: VmHWM is a process's peak since it started, and the load above set it.
    await Promise.all([bare.stop(), judged.stop()]);
    started.splice(1);
    const bigPath = join(workDir, 'proxy-two-hundred-mb.pdf');
    const pdf = await readFile(new URL('../../packages/msw/fixtures/text.pdf', import.meta.url));
    const handle = await open(bigPath, 'w');
    await handle.write(pdf);
    await handle.truncate(200 * 1024 * 1024);
    await handle.close();
    try {
      for (const start of [startBareProxy, startDocprocProxy]) {
        const target = await start(server.baseUrl);
        started.push(target);
        const r = await uploadGrowth(target, bigPath);
        memory.push([target.name, r.status, fmt(r.seconds, 2), fmt(r.before, 0), fmt(r.peak, 0), `**${fmt(r.peak - r.before, 0)}**`]);
      }
    } finally {
      await rm(bigPath, { force: true });
    }
  } finally {
    await Promise.all(started.map((t) => t.stop()));
  }
  return [
    {
      title: `Proxy: docproc proxy vs a bare pass-through proxy (${STORED} documents stored, ${CONNECTIONS} connections)`,
      note:
        `Latency: GETs sent at ${RATE} req/s (an open load, as a developer's traffic is) for ${seconds} s, each timed to its last byte ` +
        `(microsecond resolution). Throughput: autocannon, ${CONNECTIONS} connections as fast as answers come, ${seconds} s. ` +
        `${rounds} alternating rounds (the server direct, the bare proxy, docproc proxy, again); each cell is the median over the rounds. ` +
        'Both proxies forward to the same `docproc serve`; docproc proxy judges every exchange on its worker thread. ' +
        'Target: p50 through docproc proxy within 1.2x of the bare proxy.',
      head: [
        'scenario',
        `p50 ms at ${RATE} req/s (direct / bare / docproc)`,
        `p99 ms at ${RATE} req/s (direct / bare / docproc)`,
        'p50 docproc/bare',
        'p99 docproc/bare',
        'saturated req/s (direct / bare / docproc)',
        'req/s docproc/bare',
        'errors (direct / bare / docproc)',
      ],
      rows,
    },
    {
      title: 'Proxy: memory while a 200 MB upload passes through',
      note: 'A fresh process of each proxy: its RSS before the upload and its peak (VmHWM) after it. Target: growth under 64 MB for docproc proxy.',
      head: ['proxy', 'status', 'seconds', 'RSS before MiB', 'peak RSS MiB', 'growth MiB'],
      rows: memory,
    },
  ];
}
