import { defineCheck, fail } from '../definitions/check.js';
import { show } from '../definitions/describe.js';
import type { LegibleScan } from '../inputs/sample-files.js';
import type { WireDocument, WireFullDocument } from '../transport/api.js';
import { type AnswerObservation, judgeAnswer } from './answer-judge.js';
import { judgeRetryRaces, type RaceAnswer } from './races.js';

/** Fields an upload fixes for good; processing may change only status, content, error and the timestamps. */
export const FIXED_FIELDS = ['document_id', 'filename', 'content_type', 'size_bytes', 'created_at', 'attempts'] as const;
const pick = (d: Partial<WireDocument>, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, (d as Record<string, unknown>)[k]]));

/** GET /documents/get_document/{document_id}. */
export const getChecks = {
  returnsDocument: defineCheck<AnswerObservation>({
    id: 'get.returns-document',
    profile: 'contract',
    area: 'get',
    description: 'Reading the document an upload just returned is a 200.',
    rules: ['get.with-content'],
    judge: judgeAnswer,
  }),
  matchesUpload: defineCheck<{ when: string; read: WireDocument; sent: WireDocument; fields?: readonly string[] }>({
    id: 'get.matches-upload',
    profile: 'full',
    area: 'get',
    description:
      'A read document equals what the upload returned (id, filename, type, size, created_at, attempts), apart from processing results.',
    rules: ['document.created-at', 'document.size-bytes', 'upload.filename-verbatim'],
    judge: ({ when, read, sent, fields = FIXED_FIELDS }) =>
      JSON.stringify(pick(read, fields)) === JSON.stringify(pick(sent, fields))
        ? undefined
        : fail(`${when}: ${show(pick(read, fields))}`, `as the upload returned: ${show(pick(sent, fields))}`),
  }),
  unknownId: defineCheck<AnswerObservation>({
    id: 'get.unknown-id',
    profile: 'full',
    area: 'get',
    description: 'Reading an id that does not exist is a 404 not_found.',
    rules: ['get.unknown-404'],
    judge: judgeAnswer,
  }),
  rejectsInvalidId: defineCheck<AnswerObservation>({
    id: 'get.rejects-invalid-id',
    profile: 'contract',
    area: 'get',
    description: 'Reading `abc`, `0`, `-1`, `1.5`, a 30-digit number or 2^53 is a 400.',
    rules: ['get.invalid-id-400', 'errors.validation-400'],
    judge: judgeAnswer,
  }),
} as const;

/** What a retry's 202 must show, given the document before it. */
function restarted(before: WireFullDocument, after: WireFullDocument): boolean {
  const same = (['document_id', 'filename', 'content_type', 'size_bytes', 'created_at'] as const).every((k) => before[k] === after[k]);
  return (
    same &&
    after.status === 'processing' &&
    after.attempts === before.attempts + 1 &&
    after.content === null &&
    after.error === null &&
    after.processed_at === null
  );
}

/** POST /documents/retry_documents/{document_id}. */
export const retryChecks = {
  accepted: defineCheck<AnswerObservation>({
    id: 'retry.accepted',
    profile: 'contract',
    area: 'retry',
    description: 'Retrying a document that is not processing is a 202.',
    rules: ['retry.accepted-202'],
    judge: judgeAnswer,
  }),
  restartsProcessing: defineCheck<{ before: WireFullDocument; after: WireFullDocument }>({
    id: 'retry.restarts-processing',
    profile: 'full',
    area: 'retry',
    description:
      "A retry's 202 shows the document processing again: attempts + 1, content, error and processed_at cleared, everything else unchanged.",
    rules: ['retry.starts-new-run', 'retry.answer', 'document.attempts'],
    judge: ({ before, after }) =>
      restarted(before, after)
        ? undefined
        : fail(
            show(after, 600),
            show(
              {
                ...before,
                status: 'processing',
                attempts: before.attempts + 1,
                content: null,
                error: null,
                processed_at: null,
                updated_at: '(any)',
              },
              600,
            ),
          ),
  }),
  finishesAgain: defineCheck<{ before: WireFullDocument; again: WireFullDocument; word: string }>({
    id: 'retry.finishes-again',
    profile: 'full',
    area: 'retry',
    description: 'A retried document ends again: the completed one completed with its text, the failed one failed with its error.',
    rules: ['document.unreadable-fails-again', 'document.content-same-on-retry', 'retry.accepted-202'],
    judge: ({ before, again, word }) => {
      const outcome = before.status;
      const holds =
        again.status === outcome &&
        again.attempts === before.attempts + 1 &&
        (outcome === 'completed' ? (again.content ?? '').toLowerCase().includes(word) : again.error?.code === before.error?.code);
      return holds
        ? undefined
        : fail(
            show({ status: again.status, attempts: again.attempts, error: again.error, content: again.content }),
            `${outcome} again, attempts ${before.attempts + 1}, ${outcome === 'completed' ? `content with ${JSON.stringify(word)}` : `error ${show(before.error)}`}`,
          );
    },
  }),
  conflictWhileProcessing: defineCheck<{ tries: RaceAnswer[][] }>({
    id: 'retry.conflict-while-processing',
    profile: 'full',
    area: 'retry',
    description:
      'A retry while a run is in progress is a 409 document_busy: of simultaneous retries of a fresh upload at most one is accepted.',
    rules: ['retry.busy-409', 'retry.busy-document-busy'],
    // A fresh upload is processing, so every retry should be a 409; if the run already ended, the first
    // retry to arrive starts a new one and the others must still be 409. More than one 202 in every race
    // means retries were accepted while a run was in progress (see retryRaceOutcome).
    judge: ({ tries }) => judgeRetryRaces(tries, false, 'at most one 202, every other one 409 document_busy'),
  }),
  unknownId: defineCheck<AnswerObservation>({
    id: 'retry.unknown-id',
    profile: 'full',
    area: 'retry',
    description: 'Retrying an id that does not exist is a 404 not_found.',
    rules: ['get.unknown-404'],
    judge: judgeAnswer,
  }),
  rejectsInvalidId: defineCheck<AnswerObservation>({
    id: 'retry.rejects-invalid-id',
    profile: 'contract',
    area: 'retry',
    description: 'Retrying `abc`, `0`, `-1`, `1.5`, a 30-digit number or 2^53 is a 400.',
    rules: ['get.invalid-id-400', 'errors.validation-400'],
    judge: judgeAnswer,
  }),
} as const;

/** How many of a legible scan's words its text must hold: OCR is fuzzy, so one misread word is forgiven. */
export const OCR_MIN_WORDS = 2;

/** The words of `scan` that `content` holds, case-folded as the contract's search is. */
export function scanWordsIn(scan: LegibleScan, content: string | null): string[] {
  const text = (content ?? '').toLowerCase();
  return scan.words.filter((w) => text.includes(w));
}

/** Background processing from upload to a terminal state. */
export const lifecycleChecks = {
  reachesTerminal: defineCheck<{ doc: WireFullDocument; settled: boolean; polls: number; timeoutMs: number }>({
    id: 'lifecycle.reaches-terminal',
    profile: 'full',
    area: 'lifecycle',
    description: 'Uploaded documents leave `processing` within --timeout-ms (polled with backoff, never a fixed sleep).',
    rules: ['lifecycle.run-ends'],
    judge: ({ doc, settled, polls, timeoutMs }) =>
      settled
        ? undefined
        : fail(
            `document ${doc.document_id} still processing after ${timeoutMs} ms (${polls} polls, attempts ${doc.attempts})`,
            `completed or failed within --timeout-ms ${timeoutMs}`,
          ),
  }),
  completedHasContent: defineCheck<{ doc: WireFullDocument; word: string }>({
    id: 'lifecycle.completed-has-content',
    profile: 'full',
    area: 'lifecycle',
    description: "The run's generated PDF ends `completed` with its unique word in `content`.",
    rules: ['lifecycle.run-ends', 'get.with-content', 'document.content-never-empty', 'processing.extracts-text'],
    judge: ({ doc, word }) =>
      doc.status === 'completed' && (doc.content ?? '').toLowerCase().includes(word)
        ? undefined
        : fail(
            show({ status: doc.status, content: doc.content, error: doc.error }),
            `completed, content containing ${JSON.stringify(word)}`,
          ),
  }),
  noTextCompletesEmpty: defineCheck<{ doc: WireFullDocument }>({
    id: 'lifecycle.no-text-completes-empty',
    profile: 'full',
    area: 'lifecycle',
    description: 'A PDF whose only page is blank is read and holds no text: it ends `completed` with `content` `""`, not `failed`.',
    rules: ['processing.no-text', 'lifecycle.run-ends'],
    judge: ({ doc }) =>
      doc.status === 'completed' && doc.content === '' && doc.error === null
        ? undefined
        : fail(show({ status: doc.status, content: doc.content, error: doc.error }), 'completed, content "" (read, and no text found)'),
  }),
  scanReadByOcr: defineCheck<{ scan: LegibleScan; doc: WireFullDocument; search?: { term: string; listed: boolean } }>({
    id: 'lifecycle.scan-read-by-ocr',
    profile: 'full',
    area: 'lifecycle',
    description: `A legible scan (the contract's \`scanned.png\`, and \`scan-jpeg.pdf\` whose page has no text layer) ends \`completed\` with at least ${OCR_MIN_WORDS} of its printed words in \`content\` (case-folded; OCR may misread the rest), and a search for one of them lists it. A deployment that fails the scan instead (it cannot read it) leaves the check not exercised.`,
    rules: ['processing.ocr', 'document.content-ocr', 'lifecycle.run-ends', 'list.search'],
    judge: ({ scan, doc, search }) => {
      const found = scanWordsIn(scan, doc.content);
      if (doc.status !== 'completed' || found.length < OCR_MIN_WORDS)
        return fail(
          `${scan.file}: ${show({ status: doc.status, content: doc.content, error: doc.error })}`,
          `completed, content holding at least ${OCR_MIN_WORDS} of ${show(scan.words)} (OCR of the printed text; "" claims no text was found, which a legible scan has)`,
        );
      if (search && !search.listed)
        return fail(
          `${scan.file}: a search for ${show(search.term)} (in its content) did not list document ${doc.document_id}`,
          'search keeps documents whose extracted text contains the term',
        );
      return undefined;
    },
  }),
  failedHasError: defineCheck<{ doc: WireFullDocument }>({
    id: 'lifecycle.failed-has-error',
    profile: 'full',
    area: 'lifecycle',
    description: 'The corrupt PDF fixture ends `failed` with `error.code` unreadable_document and a message.',
    rules: ['processing.unreadable', 'lifecycle.run-ends'],
    judge: ({ doc }) =>
      doc.status === 'failed' && doc.error?.code === 'unreadable_document' && doc.error.message
        ? undefined
        : fail(show({ status: doc.status, error: doc.error }), 'failed, error {"code": "unreadable_document", "message": "..."}'),
  }),
} as const;
