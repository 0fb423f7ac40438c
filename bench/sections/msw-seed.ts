import { loadavg } from 'node:os';
import { createDocprocClient } from '@docproc-kit/client';
import { createDocprocHandlers } from '@docproc-kit/msw';
import { createSeedRecording } from 'docproc-kit/recording/seed-recording.js';
import { setupServer } from 'msw/node';
import { fmt, median, type Table } from '../lib/report.js';

const WORDS = ['invoice', 'harbor', 'logistics', 'счёт', 'поставщик', 'итого', 'receipt', 'sourdough', 'reference', 'delivery', '請求書'];

/** A recording of `count` documents as `docproc proxy --record` writes it: texts of 200 to 3,000 characters, a tenth failed. */
function recordingOf(count: number): string {
  const recording = createSeedRecording();
  const at = new Date(Date.now() - 86_400_000).toISOString();
  const views = Array.from({ length: count }, (_, i) => {
    const failed = i % 10 === 9;
    const length = 200 + ((i * 7919) % 2_800);
    let content = '';
    for (let w = i; content.length < length; w += 3) content += `${WORDS[w % WORDS.length]}${w % 12 === 0 ? '\n' : ' '}`;
    return {
      document_id: i + 1,
      filename: `document-${i + 1} ${WORDS[i % WORDS.length]}.pdf`,
      status: failed ? ('failed' as const) : ('completed' as const),
      attempts: 1 + (i % 3),
      error: failed ? { code: 'unreadable_document' as const, message: 'The PDF is damaged.' } : null,
      created_at: at,
      updated_at: at,
      content: failed ? null : content,
    };
  });
  recording.observe(views, 'tenant');
  return JSON.stringify(recording.contents());
}

/**
 * A recording of 10,000 documents loaded into the MSW handlers (`createDocprocHandlers({ seed })`): from the
 * file's text to the first list answered through msw/node, in this process, median of runs.
 */
export async function mswSeed({ runs, count = 10_000 }: { runs: number; count?: number }): Promise<Table[]> {
  const text = recordingOf(count);
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const handlers = createDocprocHandlers({ baseUrl: 'http://docproc.bench', processingDelayMs: 0, seed: JSON.parse(text) });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    const { data } = await createDocprocClient({ baseUrl: 'http://docproc.bench', apiKey: 'docproc-dev-key' }).listDocuments({
      search: 'sourdough',
    });
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
    server.close();
    await handlers.close();
    if (data?.pagination.total === undefined || data.pagination.total === 0) throw new Error('the seeded handlers found nothing');
  }
  return [
    {
      title: `A recording of ${count.toLocaleString('en')} documents loaded into the MSW handlers`,
      note: `The seed file \`docproc proxy --record\` writes (${(text.length / 1e6).toFixed(1)} MB of JSON, ${Math.ceil(count / 1000)} bodies, texts of 200 to 3,000 characters, a tenth failed) parsed, given to \`createDocprocHandlers({ seed })\`, and a first search answered through msw/node; median of ${runs} runs in one process. The CPU time is the process's (user and system, every thread), which a busy machine inflates less than the wall time.`,
      head: ['documents', 'median ms', 'runs ms', 'CPU ms (median)', 'load average at the end'],
      rows: [
        [
          count,
          fmt(median(times), 0),
          times.map((t) => fmt(t, 0)).join(', '),
          fmt(median(cpuTimes), 0),
          loadavg()
            .map((l) => l.toFixed(1))
            .join(', '),
        ],
      ],
    },
  ];
}
