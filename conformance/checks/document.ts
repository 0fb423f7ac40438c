import { defineCheck } from './define.js';

/** GET /documents/get_document/{document_id}. */
export const getChecks = {
  returnsDocument: defineCheck({
    id: 'get.returns-document',
    profile: 'contract',
    area: 'get',
    description: 'Reading the document an upload just returned is a 200.',
    rules: [],
  }),
  matchesUpload: defineCheck({
    id: 'get.matches-upload',
    profile: 'full',
    area: 'get',
    description:
      'A read document equals what the upload returned (id, filename, type, size, created_at, attempts), apart from processing results.',
    rules: [],
  }),
  unknownId: defineCheck({
    id: 'get.unknown-id',
    profile: 'full',
    area: 'get',
    description: 'Reading an id that does not exist is a 404 not_found.',
    rules: [],
  }),
  rejectsInvalidId: defineCheck({
    id: 'get.rejects-invalid-id',
    profile: 'contract',
    area: 'get',
    description: 'Reading `abc`, `0`, `-1`, `1.5`, a 30-digit number or 2^53 is a 400.',
    rules: [],
  }),
} as const;

/** POST /documents/retry_documents/{document_id}. */
export const retryChecks = {
  accepted: defineCheck({
    id: 'retry.accepted',
    profile: 'contract',
    area: 'retry',
    description: 'Retrying a document that is not processing is a 202.',
    rules: [],
  }),
  restartsProcessing: defineCheck({
    id: 'retry.restarts-processing',
    profile: 'full',
    area: 'retry',
    description:
      "A retry's 202 shows the document processing again: attempts + 1, content, error and processed_at cleared, everything else unchanged.",
    rules: [],
  }),
  finishesAgain: defineCheck({
    id: 'retry.finishes-again',
    profile: 'full',
    area: 'retry',
    description: 'A retried document ends again: the completed one completed with its text, the failed one failed with its error.',
    rules: [],
  }),
  conflictWhileProcessing: defineCheck({
    id: 'retry.conflict-while-processing',
    profile: 'full',
    area: 'retry',
    description:
      'A retry while a run is in progress is a 409 document_busy: of simultaneous retries of a fresh upload at most one is accepted.',
    rules: [],
  }),
  unknownId: defineCheck({
    id: 'retry.unknown-id',
    profile: 'full',
    area: 'retry',
    description: 'Retrying an id that does not exist is a 404 not_found.',
    rules: [],
  }),
  rejectsInvalidId: defineCheck({
    id: 'retry.rejects-invalid-id',
    profile: 'contract',
    area: 'retry',
    description: 'Retrying `abc`, `0`, `-1`, `1.5`, a 30-digit number or 2^53 is a 400.',
    rules: [],
  }),
} as const;

/** Background processing from upload to a terminal state. */
export const lifecycleChecks = {
  reachesTerminal: defineCheck({
    id: 'lifecycle.reaches-terminal',
    profile: 'full',
    area: 'lifecycle',
    description: 'Uploaded documents leave `processing` within --timeout-ms (polled with backoff, never a fixed sleep).',
    rules: [],
  }),
  completedHasContent: defineCheck({
    id: 'lifecycle.completed-has-content',
    profile: 'full',
    area: 'lifecycle',
    description: "The run's generated PDF ends `completed` with its unique word in `content`.",
    rules: [],
  }),
  failedHasError: defineCheck({
    id: 'lifecycle.failed-has-error',
    profile: 'full',
    area: 'lifecycle',
    description: 'The corrupt PDF fixture ends `failed` with `error.code` unreadable_document and a message.',
    rules: [],
  }),
} as const;
