import { rename, writeFile } from 'node:fs/promises';
import type { Exchange, Verdict } from '@docproc-kit/conformance/observe';
import { documentViews } from '../recording/document-views.js';
import type { RecordingSummary, SeedFileContents, SeedRecording, WriteOptions } from '../recording/seed-recording.js';

/** Hands each judged exchange's documents to a recording, when the judges found nothing wrong with it. */
export interface ProxyRecorder {
  judged(exchange: Exchange, verdicts: readonly Verdict[], bodyJudged: boolean, tenant: string): void;
  recording: SeedRecording;
}

/**
 * Records the documents of every answer that shows documents (an upload's, a list's, a read's, a retry's)
 * and that the proxy judged valid: no violation of its own or of its request, and its body read whole. Any
 * other such answer is counted, under each check that failed on it (or `body-not-judged`).
 * @example const recorder = createProxyRecorder(createSeedRecording()); recorder.judged(exchange, verdicts, true, tenant);
 */
export function createProxyRecorder(recording: SeedRecording): ProxyRecorder {
  return {
    recording,
    judged(exchange, verdicts, bodyJudged, tenant) {
      const operationId = exchange.target.kind === 'operation' ? exchange.target.operationId : undefined;
      // Whether it shows documents at all is read from the body; a body not read whole (or not JSON) by its status.
      const readable = bodyJudged && exchange.json !== undefined;
      const shows = documentViews(operationId, exchange.status, readable ? exchange.json : { documents: [] });
      if (!shows) return;
      const failed = [...new Set(verdicts.filter((v) => v.kind === 'violation').map((v) => v.check.id))];
      if (!bodyJudged) recording.refuse(['body-not-judged']);
      else if (failed.length > 0) recording.refuse(failed);
      else recording.observe(shows, tenant);
    },
  };
}

/** What a flush of the recording answers (`POST /_proxy/record/flush`) and the exit line says. */
export interface FlushResult extends RecordingSummary {
  file: string;
  writtenAt: string;
}

/** Where the recording comes from: the judging, on whichever thread it runs. */
export type RecordingSource = (options: WriteOptions) => Promise<{ contents: SeedFileContents; summary: RecordingSummary }>;

/**
 * Writes the recording to `file` whole (a temporary file renamed over it, so a reader never sees half of it).
 * @example const flush = createRecordingWriter('seed.json', (o) => judging.recording(o), { redactContent: true }); await flush();
 */
export function createRecordingWriter(
  file: string,
  source: RecordingSource,
  options: Omit<WriteOptions, 'now'>,
): () => Promise<FlushResult> {
  let writing = Promise.resolve();
  return () => {
    const done = writing.then(async () => {
      const now = new Date();
      const { contents, summary } = await source({ ...options, now });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(contents, null, 1)}\n`);
      await rename(temporary, file);
      return { file, writtenAt: now.toISOString(), ...summary };
    });
    // Flushes one after another: two at once would race on the temporary file.
    writing = done.then(
      () => {},
      () => {},
    );
    return done;
  };
}
