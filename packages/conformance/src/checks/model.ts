import { defineCheck } from '../definitions/check.js';
import { type DocumentObservation, judgeModelDocument } from './model-documents.js';
import { judgeModelList, type ListObservation } from './model-lists.js';
import {
  type ClockObservation,
  judgeOnTheClock,
  judgeProcessedAt,
  judgeUpdatedAtMoves,
  type ProcessedAtObservation,
  type UpdatedAtObservation,
} from './model-times.js';
import { type IdempotencyObservation, judgeIdempotencyLifecycle } from './model-uploads.js';
import { IDEMPOTENCY_RULES, LIST_VIEW_RULES, RETRY_RULES } from './sequence-rules.js';

/**
 * What the stateful model run judges: random sequences of uploads, lists, reads and retries (two tenants
 * with --second-api-key), every answer compared with an executable model of the contract. What an answer
 * must be depends on every earlier answer of the sequence, so the model (model/state.ts) works out what it
 * expects from the state it keeps and hands that, with what the target showed, to the check's judge here.
 */
export const modelChecks = {
  lists: defineCheck<ListObservation>({
    id: 'model.lists',
    profile: 'full',
    area: 'model',
    description:
      'In random sequences of operations, every list holds exactly the documents the model says match (status_filter, literal case-insensitive search on filename or completed text), newest first, with true totals and ceil(total/limit) pages.',
    rules: [...LIST_VIEW_RULES, 'upload.all-or-nothing'],
    judge: judgeModelList,
  }),
  documents: defineCheck<DocumentObservation>({
    id: 'model.documents',
    profile: 'full',
    area: 'model',
    description:
      'In random sequences of operations, every upload, read and retry answers as the model says: status code, fields, attempts, the lifecycle (processing -> completed | failed, retry -> processing), text with the words the suite put in the file.',
    rules: [
      ...RETRY_RULES,
      'lifecycle.created-processing',
      'lifecycle.run-ends',
      'upload.accepted-202',
      'upload.part-order',
      'upload.filename-verbatim',
      'document.size-bytes',
      'get.with-content',
      'get.unknown-404',
    ],
    judge: judgeModelDocument,
  }),
  updatedAtMoves: defineCheck<UpdatedAtObservation>({
    id: 'lifecycle.updated-at-moves',
    profile: 'full',
    area: 'lifecycle',
    description:
      '`updated_at` moves forward when a run ends and when a retry starts one, stays put while a finished document does not change, never goes back, and is never before `processed_at`.',
    rules: ['document.updated-at'],
    judge: judgeUpdatedAtMoves,
  }),
  processedAt: defineCheck<ProcessedAtObservation>({
    id: 'lifecycle.processed-at',
    profile: 'full',
    area: 'lifecycle',
    description:
      '`processed_at` is null while a run goes on, is set when it ends (never before that run started: after a retry, never at the instant of the upload) and stays the same until the next retry; `created_at` never changes.',
    rules: ['document.processed-at', 'document.created-at'],
    judge: judgeProcessedAt,
  }),
  onTheClock: defineCheck<ClockObservation>({
    id: 'lifecycle.timestamps-on-the-clock',
    profile: 'full',
    area: 'lifecycle',
    description:
      "`created_at` names when the upload was answered and a retry's `updated_at` when the retry was, on the suite's own clock within --clock-skew-ms; no timestamp names a time after the answer that shows it.",
    rules: ['document.created-at', 'document.updated-at', 'document.processed-at'],
    judge: judgeOnTheClock,
  }),
  idempotencyLifecycle: defineCheck<IdempotencyObservation>({
    id: 'upload.idempotency-lifecycle',
    profile: 'full',
    area: 'upload',
    description:
      'Over random sequences of uploads under a few Idempotency-Keys: a repeat replays (same ids, `Idempotent-Replayed: true`), other files are a 409 idempotency_key_reused, a failed upload is not remembered (its key then works for any files), and keys belong to their API key.',
    rules: [...IDEMPOTENCY_RULES],
    judge: judgeIdempotencyLifecycle,
  }),
} as const;
