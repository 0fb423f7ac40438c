import { execFile as execFileCb, spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import type { ContentType } from '@docproc-kit/reference/model.js';
import { DEFAULT_EXTRACTION_LIMITS, type FileSource } from '@docproc-kit/reference/processing/extraction.js';
import { createCanvas } from '@napi-rs/canvas';
import { createExtractor } from 'docproc-kit/extraction/extractor.js';
import { englishLangPath } from 'docproc-kit/extraction/ocr-reader.js';
import { RENDER_DPI } from 'docproc-kit/extraction/pdf-pages.js';
import Tesseract from 'tesseract.js';
import { fmt, median, ratio, type Table } from '../lib/report.js';

const onDisk = (path: string): FileSource => ({ path, bytes: () => readFile(path) });

const execFile = promisify(execFileCb);
const fixture = (name: string) => fixturePath(name);

// Each file with a word its text must contain ('' for the hopeless scan: no text is the right answer)
// and how the native tools read it: pdftotext for a text layer, pdftoppm + tesseract for a scan.
const CASES: Array<{ file: string; type: ContentType; word: string; native: 'pdftotext' | 'scan-pdf' | 'tesseract' }> = [
  { file: 'text.pdf', type: 'application/pdf', word: 'PELICAN', native: 'pdftotext' },
  { file: 'multipage.pdf', type: 'application/pdf', word: 'CHARLIE', native: 'pdftotext' },
  { file: 'cjk-nonembedded.pdf', type: 'application/pdf', word: '請求書', native: 'pdftotext' },
  { file: 'scan-jpeg.pdf', type: 'application/pdf', word: 'HALIBUT', native: 'scan-pdf' },
  { file: 'scan-g4.pdf', type: 'application/pdf', word: 'OSPREY', native: 'scan-pdf' },
  { file: 'scan-a4-letter.pdf', type: 'application/pdf', word: 'TAMARIND', native: 'scan-pdf' },
  { file: 'scanned.png', type: 'image/png', word: 'SOURDOUGH', native: 'tesseract' },
  { file: 'photo.jpg', type: 'image/jpeg', word: 'MARIGOLD', native: 'tesseract' },
  { file: 'hopeless-scan.jpg', type: 'image/jpeg', word: '', native: 'tesseract' },
];

const has = (tool: string) => spawnSync(tool, ['-v'], { stdio: 'ignore' }).error === undefined;

/**
 * Extraction time per file, ours (the server's extractor, a warm extraction process) beside the
 * native tools on the same file in the same run: pdftotext, and pdftoppm + tesseract for scans,
 * tesseract with the very model file we ship (LSTM, `best_int`). Native tools missing: ours alone.
 */
export async function extraction({ workDir, runs }: { workDir: string; runs: number }): Promise<Table[]> {
  const missing = ['pdftotext', 'pdftoppm', 'tesseract'].filter((tool) => !has(tool));
  if (missing.length > 0)
    console.warn(`extraction bench: ${missing.join(', ')} not found; native columns skipped (apt-get install poppler-utils tesseract-ocr)`);
  const dir = join(workDir, 'extraction');
  const tessdata = join(dir, 'tessdata');
  await mkdir(tessdata, { recursive: true });
  await writeFile(join(tessdata, 'eng.traineddata'), gunzipSync(await readFile(join(englishLangPath(), 'eng.traineddata.gz'))));

  // One thread, like one tesseract.js worker (Debian's tesseract would otherwise use OpenMP threads).
  const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
  const tesseract = async (image: string) =>
    (await execFile('tesseract', ['--tessdata-dir', tessdata, '--oem', '1', image, '-'], { env })).stdout;
  const native = async (c: (typeof CASES)[number]): Promise<string> => {
    const path = fixture(c.file);
    if (c.native === 'pdftotext') return (await execFile('pdftotext', ['-enc', 'UTF-8', path, '-'])).stdout;
    if (c.native === 'tesseract') return tesseract(path);
    const pages = join(dir, 'pages');
    await rm(pages, { recursive: true, force: true });
    await mkdir(pages);
    await execFile('pdftoppm', ['-r', String(RENDER_DPI), '-png', path, join(pages, 'p')]);
    let text = '';
    for (const page of (await readdir(pages)).sort()) text += await tesseract(join(pages, page));
    return text;
  };

  // What every native OCR call pays before reading anything: process start-up and model load.
  const startup: number[] = [];
  if (missing.length === 0) {
    const blank = join(dir, 'blank.png');
    const canvas = createCanvas(8, 8);
    canvas.getContext('2d').fillStyle = '#fff';
    canvas.getContext('2d').fillRect(0, 0, 8, 8);
    await writeFile(blank, await canvas.encode('png'));
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await tesseract(blank);
      startup.push(performance.now() - started);
    }
  }

  const extractor = createExtractor(DEFAULT_EXTRACTION_LIMITS);
  const rows: Table['rows'] = [];
  try {
    // Warm-up: start the extraction process (pdf.js and tesseract loaded), as a running server has it.
    await extractor.extract(onDisk(fixture('scan-jpeg.pdf')), 'application/pdf');
    for (const c of CASES) {
      const ours: number[] = [];
      const theirs: number[] = [];
      let oursText = '';
      let theirText = '';
      for (let i = 0; i < runs; i++) {
        let started = performance.now();
        const result = await extractor.extract(onDisk(fixture(c.file)), c.type);
        ours.push(performance.now() - started);
        oursText = result.ok ? result.text : `failed: ${result.error.message}`;
        if (missing.length === 0) {
          started = performance.now();
          theirText = await native(c);
          theirs.push(performance.now() - started);
        }
      }
      const reads = (text: string) => (c.word === '' ? text.trim() === '' : text.includes(c.word));
      const oursMs = median(ours);
      const theirMs = missing.length === 0 ? median(theirs) : NaN;
      rows.push([
        c.file,
        c.native === 'pdftotext' ? 'pdftotext' : c.native === 'scan-pdf' ? `pdftoppm -r ${RENDER_DPI} + tesseract` : 'tesseract',
        c.word === '' ? 'no text' : c.word,
        fmt(oursMs, 0),
        fmt(theirMs, 0),
        missing.length === 0 ? `**${ratio(oursMs, theirMs)}**` : 'n/a',
        `${reads(oursText) ? 'yes' : 'NO'} / ${missing.length === 0 ? (reads(theirText) ? 'yes' : 'NO') : 'n/a'}`,
      ]);
    }
  } finally {
    await extractor.close();
  }

  // The hopeless scan as the server read it before (tesseract.js's default: the page is one block
  // of text), once: it is slow, which is the point.
  const before = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: englishLangPath(),
    gzip: true,
    cacheMethod: 'none',
  });
  let beforeMs = NaN;
  let beforeChars = 0;
  try {
    const started = performance.now();
    beforeChars = (await before.recognize(await readFile(fixture('hopeless-scan.jpg')))).data.text.trim().length;
    beforeMs = performance.now() - started;
  } finally {
    await before.terminate();
  }
  const hopeless = rows.find((row) => row[0] === 'hopeless-scan.jpg')!;
  return [
    {
      title: 'Extraction: ours vs the native tools, same files',
      note:
        `Median of ${runs} runs per file. Ours: the server's extractor with a warm extraction process (pdf.js and one tesseract.js worker loaded), ` +
        `so it is the engine's time without HTTP or queueing. Native: one process per call (start-up and model load included, as a user of the CLI pays), ` +
        `tesseract ${missing.includes('tesseract') ? '(missing)' : `--oem 1 on one thread (OMP_THREAD_LIMIT=1) with the same eng.traineddata (4.0.0_best_int) we ship; its start-up and model load alone (an 8×8 blank PNG) take ${fmt(median(startup), 0)} ms of each call`}; scanned PDFs rendered at the same ${RENDER_DPI} dpi. ` +
        `"Reads" says whether the text has the file's word (for the hopeless scan: whether it is empty).`,
      head: ['file', 'native tool', 'word', 'ours ms', 'native ms', 'ours/native', 'reads (ours / native)'],
      rows,
    },
    {
      title: 'Hopeless scan: time to a verdict',
      note: 'hopeless-scan.jpg (800×1100, text faded under noise). Before: tesseract.js with its default segmentation (the whole page as one block of text), one run, as the server read images until automatic segmentation was set.',
      head: ['reader', 'ms', 'text found'],
      rows: [
        ['ours, automatic segmentation (median)', hopeless[3]!, 'none'],
        ['ours before, one block of text', fmt(beforeMs, 0), `${beforeChars} characters of garbage`],
        ['native tesseract (median)', hopeless[4]!, 'none'],
        ['before / now', `**${ratio(beforeMs, Number(hopeless[3]))}**`, ''],
      ],
    },
  ];
}
