import type { ChildMessage, ExtractionJob } from './child-protocol.js';
import { createOcrReader } from './ocr-reader.js';
import { readDocument } from './read-document.js';

// The extraction process: started by extraction-process.ts with an IPC channel, it reads one
// document at a time as the server asks, and says where it is while it reads, so a limit that stops
// it can name the page. Everything it allocates (pdf.js, canvases, tesseract's wasm) is its own, so
// the server can limit it, watch it and kill it without losing anything of its own.
const send = (message: ChildMessage) => process.send?.(message);
const ocr = createOcrReader();

process.on('message', (job: ExtractionJob) => {
  void readDocument(job, ocr, (at) => send({ type: 'progress', page: at.page, pages: at.pages })).then(
    ({ extraction, memoryLimitReached }) => send({ type: 'result', extraction, memoryLimitReached }),
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      const message = `Extraction failed unexpectedly (${reason}); a retry may succeed.`;
      // Not kept: whatever failed may have left it in a bad state.
      send({ type: 'result', extraction: { ok: false, error: { code: 'processing_error', message } }, memoryLimitReached: true });
    },
  );
});

// The server went away (it exited or was killed): nothing is left to read for.
process.on('disconnect', () => {
  void ocr.close().finally(() => process.exit(0));
});
