import type { DocumentError, DocumentRecord, ForcedOutcome } from '../model.js';

/** What extracting a file's text gave. */
export type Extraction = { ok: true; text: string } | { ok: false; error: DocumentError };

/** How a run ends: the text of a completed run, or the error of a failed one. */
export type RunOutcome = { status: 'completed'; content: string } | { status: 'failed'; error: DocumentError };

/** The result of asking for a retry. */
export type RetryDecision = { ok: true; record: DocumentRecord } | { ok: false; reason: 'busy' };

/** The message of a simulated transient failure. */
export const SIMULATED_FAILURE: DocumentError = {
  code: 'processing_error',
  message: 'Processing failed because of a transient fault (simulated by the reference server); a retry may succeed.',
};

const FORCED_FAILURE: DocumentError = {
  code: 'processing_error',
  message: 'Processing failed because this outcome was forced through the mock controls.',
};

/**
 * A retry starts a new run of a completed or failed document: processing again, one more attempt,
 * text, error and processed_at cleared. A document that is processing is busy.
 * @example startRetry(failedDoc, '2024-05-02T09:20:11.002Z'); // { ok: true, record: { status: 'processing', attempts: 2, ... } }
 */
export function startRetry(record: DocumentRecord, now: string): RetryDecision {
  if (record.status === 'processing') return { ok: false, reason: 'busy' };
  return {
    ok: true,
    record: { ...record, status: 'processing', attempts: record.attempts + 1, error: null, processed_at: null, updated_at: now },
  };
}

/**
 * Decides how a run ends. A forced outcome wins; otherwise a good extraction fails with
 * `processing_error` when the draw falls under the failure rate (`draw` is in [0, 1), drawn for
 * every good run so a seed replays the same sequence); otherwise the extraction decides.
 * @example decideOutcome({ extraction: { ok: true, text: 'PELICAN' }, forced: null, failureRate: 0, draw: 0.5 });
 */
export function decideOutcome(input: {
  extraction: Extraction;
  forced: ForcedOutcome | null;
  failureRate: number;
  draw: number;
}): RunOutcome {
  const { extraction, forced, failureRate, draw } = input;
  if (forced?.outcome === 'failed') return { status: 'failed', error: forced.error ?? FORCED_FAILURE };
  if (forced?.outcome === 'completed') return { status: 'completed', content: forced.content ?? (extraction.ok ? extraction.text : '') };
  if (!extraction.ok) return { status: 'failed', error: extraction.error };
  if (draw < failureRate) return { status: 'failed', error: SIMULATED_FAILURE };
  return { status: 'completed', content: extraction.text };
}

/**
 * The record once a run has ended: completed or failed, processed now, the forced outcome used up.
 * @example finishRun(doc, { status: 'completed', content: 'PELICAN' }, now);
 */
export function finishRun(record: DocumentRecord, outcome: RunOutcome, now: string): DocumentRecord {
  return {
    ...record,
    status: outcome.status,
    error: outcome.status === 'failed' ? outcome.error : null,
    processed_at: now,
    updated_at: now,
    next_outcome: null,
  };
}
