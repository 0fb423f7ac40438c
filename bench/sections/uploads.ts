import { openAsBlob } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { measure, multipartBody } from '../lib/load.js';
import { fmt, ratio, type Table } from '../lib/report.js';
import { KEY_HEADERS, startAll, startPrism, startReference } from '../lib/targets.js';

/** A real PDF (the text.pdf fixture) padded with trailing comment bytes to `bytes`. */
async function paddedPdf(bytes: number): Promise<Uint8Array> {
  const pdf = await readFile(fixturePath('text.pdf'));
  const out = new Uint8Array(bytes).fill(0x25);
  out.set(pdf);
  return out;
}

/** Upload throughput (5 MB PDF; 20 x 1 MB in one request) vs Prism, and peak RSS for a 200 MB upload. */
export async function uploads({ workDir }: { workDir: string }): Promise<Table[]> {
  const five = await multipartBody([{ name: 'five-mb.pdf', bytes: await paddedPdf(5 * 1024 * 1024), type: 'application/pdf' }]);
  const onePdf = await paddedPdf(1024 * 1024);
  const twenty = await multipartBody(
    Array.from({ length: 20 }, (_, i) => ({ name: `one-mb-${i}.pdf`, bytes: onePdf, type: 'application/pdf' })),
  );
  const cases = [
    { name: '1 x 5 MB PDF', body: five, amount: 20, connections: 2 },
    { name: '20 x 1 MB PDFs in one request', body: twenty, amount: 10, connections: 2 },
  ];
  const rows: Table['rows'] = [];
  const [ours, prism] = await startAll([() => startReference(join(workDir, 'uploads'), ['--processing-delay-ms', '0']), startPrism]);
  try {
    for (const c of cases) {
      const run = (baseUrl: string) =>
        measure({
          url: `${baseUrl}/api/v1/documents/upload_files`,
          method: 'POST',
          headers: { ...KEY_HEADERS, 'content-type': c.body.contentType },
          body: c.body.body,
          expectStatus: 202,
          amount: c.amount,
          connections: c.connections,
        });
      const o = await run(ours.baseUrl);
      const p = await run(prism.baseUrl);
      const mb = c.body.body.length / 1024 / 1024;
      // A peer that refuses the upload (Prism has a body size limit of its own) has no rate to compare.
      const comparable = p.unexpected === 0;
      const statuses = (r: typeof o) =>
        Object.entries(r.statuses)
          .map(([status, n]) => `${n}x ${status}`)
          .join(', ');
      rows.push([
        c.name,
        fmt(o.requestsPerSec, 2),
        comparable ? fmt(p.requestsPerSec, 2) : `refused (${statuses(p)})`,
        comparable ? `**${ratio(o.requestsPerSec, p.requestsPerSec)}**` : 'n/a',
        fmt(o.requestsPerSec * mb, 0),
        `${o.p50Ms} / ${p.p50Ms}`,
        `${o.p99Ms} / ${p.p99Ms}`,
        `${statuses(o)} / ${statuses(p)}`,
      ]);
    }
  } finally {
    await Promise.all([ours.stop(), prism.stop()]);
  }

  // 200 MB through a server whose limit allows it: the upload must stream to disk.
  const bigPath = join(workDir, 'two-hundred-mb.pdf');
  const handle = await open(bigPath, 'w');
  await handle.write(await paddedPdf(1024 * 1024));
  await handle.truncate(200 * 1024 * 1024);
  await handle.close();
  const big = await startReference(join(workDir, 'big'), ['--max-file-bytes', String(300 * 1024 * 1024), '--processing-delay-ms', '0']);
  let rssRow: Table['rows'][number];
  try {
    const before = await big.rssMiB();
    const form = new FormData();
    form.append('files[]', await openAsBlob(bigPath, { type: 'application/pdf' }), 'two-hundred-mb.pdf');
    const started = performance.now();
    const res = await fetch(`${big.baseUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: KEY_HEADERS, body: form });
    const seconds = (performance.now() - started) / 1000;
    const peak = await big.peakRssMiB();
    rssRow = ['200 MB PDF, limit raised to 300 MB', res.status, fmt(seconds, 2), fmt(before, 0), fmt(peak, 0), fmt(peak - before, 0)];
  } finally {
    await big.stop();
    await rm(bigPath, { force: true });
  }
  return [
    {
      title: 'Uploads: ours vs Prism',
      note: 'autocannon with a fixed number of requests (uploads write to disk), 2 connections. Ours runs real processing in the background (delay 0).',
      head: [
        'upload',
        'ours req/s',
        'Prism req/s',
        'ours/Prism',
        'ours MB/s',
        'p50 ms (ours / Prism)',
        'p99 ms (ours / Prism)',
        'answers (ours / Prism)',
      ],
      rows,
    },
    {
      title: 'Streaming: peak memory of one 200 MB upload',
      note: 'RSS before the upload and the peak (VmHWM) after it: growth far below the file size shows the upload streams to disk.',
      head: ['upload', 'status', 'seconds', 'RSS before MiB', 'peak RSS MiB', 'growth MiB'],
      rows: [rssRow],
    },
  ];
}
