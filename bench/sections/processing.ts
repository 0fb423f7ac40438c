import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { fmt, type Table } from '../lib/report.js';
import { KEY_HEADERS, startReference } from '../lib/targets.js';

/** Documents per minute through the processing queue (real extraction, no artificial delay). */
export async function processing({ workDir }: { workDir: string }): Promise<Table[]> {
  const cases = [
    { fixture: 'text.pdf', type: 'application/pdf', count: 40, what: 'text PDF (text layer)' },
    { fixture: 'scanned.png', type: 'image/png', count: 12, what: 'scanned PNG (OCR)' },
  ];
  const rows: Table['rows'] = [];
  for (const c of cases) {
    const server = await startReference(join(workDir, `processing-${c.fixture}`), ['--processing-delay-ms', '0', '--max-files', '100']);
    try {
      const bytes = await readFile(fixturePath(c.fixture));
      const form = new FormData();
      for (let i = 0; i < c.count; i++) form.append('files[]', new Blob([bytes], { type: c.type }), `${i}-${c.fixture}`);
      const started = performance.now();
      const res = await fetch(`${server.baseUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: KEY_HEADERS, body: form });
      if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      let left = c.count;
      while (left > 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const list = await fetch(`${server.baseUrl}/api/v1/documents/get_documents?status_filter=processing&limit=1`, {
          headers: KEY_HEADERS,
        });
        left = ((await list.json()) as { pagination: { total: number } }).pagination.total;
      }
      const seconds = (performance.now() - started) / 1000;
      const completed = await fetch(`${server.baseUrl}/api/v1/documents/get_documents?status_filter=completed&limit=1`, {
        headers: KEY_HEADERS,
      });
      const done = ((await completed.json()) as { pagination: { total: number } }).pagination.total;
      rows.push([c.what, c.count, done, fmt(seconds, 2), fmt((c.count / seconds) * 60, 0)]);
    } finally {
      await server.stop();
    }
  }
  return [
    {
      title: 'Processing throughput',
      note: 'One upload of N copies, timed until none is processing; default concurrency (2 extractions at once, one per core), processing delay 0. OCR time includes starting the tesseract workers.',
      head: ['fixture', 'documents', 'completed', 'seconds', 'documents / minute'],
      rows,
    },
  ];
}
