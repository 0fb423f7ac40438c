import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BytesExtractor, Extraction } from './lifecycle.js';

/** Limits that keep one hostile PDF from stalling or exhausting the server. */
export interface PdfLimits {
  maxPages: number;
  timeoutMs: number;
  /** Heap limit of the worker that parses the PDF, in MB. */
  maxMemoryMb: number;
}

/** Extracts the text layer of PDFs, each in a worker thread that can be killed. */
export type PdfExtractor = BytesExtractor;

type Reply = { ok: true; text: string } | { ok: false; kind: 'pages'; pages: number } | { ok: false; kind: 'error'; name: string; message: string };

// pdf.js parses on the calling thread and cannot be interrupted, so it runs in a worker: a time
// limit can terminate it and a heap limit contains memory bombs. The worker is eval'd JavaScript so
// the same code runs under tsx, vitest and the compiled dist/ without a TypeScript loader.
function workerSource(unpdfUrl: string): string {
  return `
const { parentPort } = require('node:worker_threads');
let unpdf;
parentPort.on('message', async ({ bytes, maxPages }) => {
  let pdf;
  try {
    unpdf ??= await import(${JSON.stringify(unpdfUrl)});
    pdf = await unpdf.getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false, useSystemFonts: false, disableFontFace: true });
    if (pdf.numPages > maxPages) return parentPort.postMessage({ ok: false, kind: 'pages', pages: pdf.numPages });
    const { text } = await unpdf.extractText(pdf, { mergePages: false });
    parentPort.postMessage({ ok: true, text: text.map((page) => page.trim()).filter(Boolean).join('\\n\\n') });
  } catch (error) {
    parentPort.postMessage({ ok: false, kind: 'error', name: String(error && error.name), message: String(error && error.message) });
  } finally {
    if (pdf) await pdf.destroy().catch(() => {});
  }
});`;
}

function unreadable(message: string): Extraction {
  return { ok: false, error: { code: 'unreadable_document', message } };
}

function explain(reply: Exclude<Reply, { ok: true }>, limits: PdfLimits): Extraction {
  if (reply.kind === 'pages') return unreadable(`The PDF has ${reply.pages} pages; at most ${limits.maxPages} pages are processed.`);
  if (reply.name === 'PasswordException') return unreadable('The PDF is password-protected, so its text cannot be read.');
  if (reply.name === 'InvalidPDFException') return unreadable('The PDF could not be parsed (its structure is damaged or incomplete).');
  return unreadable(`The PDF could not be read (${reply.message}).`);
}

/**
 * Starts worker threads lazily, one per concurrent PDF, reusing idle ones; a worker that times out
 * or dies is thrown away.
 * @example const pdf = createPdfExtractor({ maxPages: 500, timeoutMs: 60_000, maxMemoryMb: 512 });
 */
export function createPdfExtractor(limits: PdfLimits): PdfExtractor {
  const unpdfUrl = pathToFileURL(createRequire(import.meta.url).resolve('unpdf')).href;
  const source = workerSource(unpdfUrl);
  const idle: Worker[] = [];
  const busy = new Set<Worker>();
  let closed = false;

  const spawn = () => {
    const worker = new Worker(source, { eval: true, resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb }, stdout: true, stderr: true });
    // pdf.js chatters about damaged files; that is expected here, so it is read and dropped.
    worker.stdout.resume();
    worker.stderr.resume();
    return worker;
  };

  return {
    extract(bytes) {
      if (closed) return Promise.resolve({ ok: false, error: { code: 'processing_error', message: 'The server is shutting down.' } });
      const worker = idle.pop() ?? spawn();
      busy.add(worker);
      return new Promise<Extraction>((resolve) => {
        const settle = (result: Extraction, keep: boolean) => {
          clearTimeout(timer);
          worker.off('message', onMessage).off('error', onError).off('exit', onExit);
          busy.delete(worker);
          if (keep && !closed) idle.push(worker);
          else void worker.terminate();
          resolve(result);
        };
        const onMessage = (reply: Reply) => settle(reply.ok ? { ok: true, text: reply.text } : explain(reply, limits), true);
        const onError = (error: Error & { code?: string }) =>
          settle(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? unreadable('Reading the PDF needed more memory than the processing limits allow.')
              : { ok: false, error: { code: 'processing_error', message: 'The PDF reader failed unexpectedly; a retry may succeed.' } },
            false,
          );
        const onExit = () =>
          settle({ ok: false, error: { code: 'processing_error', message: 'The PDF reader stopped unexpectedly; a retry may succeed.' } }, false);
        const timer = setTimeout(
          () => settle(unreadable(`Reading the PDF took longer than ${limits.timeoutMs / 1000} s, the processing time limit.`), false),
          limits.timeoutMs,
        );
        worker.on('message', onMessage).on('error', onError).on('exit', onExit);
        // A copy is transferred so the caller's buffer stays usable.
        const copy = new Uint8Array(bytes);
        worker.postMessage({ bytes: copy, maxPages: limits.maxPages }, [copy.buffer]);
      });
    },
    async close() {
      closed = true;
      const all = [...idle, ...busy];
      idle.length = 0;
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
