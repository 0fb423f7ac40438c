import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import type { ContentType } from '@docproc-kit/reference/model.js';
import type * as Extraction from '@docproc-kit/reference/processing/extraction.js';
import type { ExtractionJob } from 'docproc-kit/extraction/child-protocol.js';
import type * as Pool from 'docproc-kit/extraction/extraction-pool.js';
import type * as Ocr from 'docproc-kit/extraction/ocr-reader.js';
import type * as Read from 'docproc-kit/extraction/read-document.js';
import { fmt, median, ratio, type Table } from '../lib/report.js';

// The compiled code (bench/run.ts builds it first), as the server runs it: the extraction processes
// then run compiled JavaScript, not the sources through tsx.
const compiled = <T>(module: string) =>
  import(new URL(`../../packages/docproc-kit/dist/extraction/${module}.js`, import.meta.url).href) as Promise<T>;

const fixture = (name: string) => fixturePath(name);
const CASES: Array<{ file: string; type: ContentType }> = [
  { file: 'text.pdf', type: 'application/pdf' },
  { file: 'scan-jpeg.pdf', type: 'application/pdf' },
  { file: 'scanned.png', type: 'image/png' },
];

/**
 * What reading each document in an extraction process costs, beside reading it in this process
 * (the same code, warm), in one run: through a warm process that is kept (as the server keeps one
 * that stayed small), and through a new process for every document (start-up, loading pdf.js and
 * the OCR engine included, as after a process that grew is replaced).
 */
export async function extractionProcess({ runs }: { runs: number }): Promise<Table[]> {
  const [{ createExtractionPool }, { DEFAULT_EXTRACTION_LIMITS, MAX_RENDER_PIXELS }, { createOcrReader }, { readDocument }] =
    await Promise.all([
      compiled<typeof Pool>('extraction-pool'),
      compiled<typeof Extraction>('extraction'),
      compiled<typeof Ocr>('ocr-reader'),
      compiled<typeof Read>('read-document'),
    ]);
  const limits = { ...DEFAULT_EXTRACTION_LIMITS, maxRenderPixels: MAX_RENDER_PIXELS };
  const kept = createExtractionPool({ ...limits, recycleAboveMb: limits.memoryMb });
  const fresh = createExtractionPool({ ...limits, recycleAboveMb: 0 });
  const ocr = createOcrReader();
  const rows: Table['rows'] = [];
  try {
    for (const c of CASES) {
      // In this process nothing is limited: no memory limit, so the OCR engine is never restarted.
      const job: ExtractionJob = { path: fixture(c.file), contentType: c.type, ...limits, memoryMb: Number.MAX_SAFE_INTEGER };
      // Warm: this process's OCR engine and pdf.js, the kept process.
      await readDocument(job, ocr, () => {});
      await kept.extract({ path: fixture(c.file) }, c.type);
      const times = { inProcess: [] as number[], kept: [] as number[], fresh: [] as number[] };
      for (let i = 0; i < runs; i++) {
        let started = performance.now();
        await readDocument(job, ocr, () => {});
        times.inProcess.push(performance.now() - started);
        started = performance.now();
        await kept.extract({ path: fixture(c.file) }, c.type);
        times.kept.push(performance.now() - started);
        started = performance.now();
        await fresh.extract({ path: fixture(c.file) }, c.type);
        times.fresh.push(performance.now() - started);
      }
      const [inProcess, warm, cold] = [median(times.inProcess), median(times.kept), median(times.fresh)];
      rows.push([
        c.file,
        fmt(inProcess, 0),
        fmt(warm, 0),
        fmt(cold, 0),
        fmt(warm - inProcess, 0),
        fmt(cold - inProcess, 0),
        ratio(cold, inProcess),
      ]);
    }
  } finally {
    await Promise.all([kept.close(), fresh.close(), ocr.close()]);
  }
  return [
    {
      title: 'Extraction processes: cost per document',
      note: `Median of ${runs} runs per file, one after another in one run: the extractor's code in this process (warm pdf.js and OCR engine); through a kept extraction process (warm); through a new extraction process per document (spawned, pdf.js and, for OCR, tesseract loaded).`,
      head: ['file', 'in-process ms', 'kept process ms', 'new process ms', 'kept − in-process', 'new − in-process', 'new / in-process'],
      rows,
    },
  ];
}
