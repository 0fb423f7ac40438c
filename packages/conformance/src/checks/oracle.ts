import { defineCheck } from '../definitions/check.js';
import { judgeOracle, type OracleObservation } from './differential.js';
import { IDEMPOTENCY_RULES, LIST_VIEW_RULES, RETRY_RULES } from './sequence-rules.js';

// What the differential run judges (oracle/): random sequences sent to the target and, in lockstep, to the
// reference core in the suite's own process, every answer compared whole but for what the contract lets a
// deployment decide (differential.ts ALLOWED_DIFFERENCES). Grouped by the operation whose answer differed.
const ANSWERED_AS_THE_REFERENCE =
  'answers as the reference core does to the same request in the same state (status, media type, every field of the body with documents named by what they are, problem codes and the fields `errors` names, an echoed X-Request-Id, Idempotent-Replayed, Allow), but for what the contract lets a deployment decide';

export const oracleChecks = {
  upload: defineCheck<OracleObservation>({
    id: 'oracle.upload',
    profile: 'full',
    area: 'oracle',
    description: `In random sequences (generated files, names at and past the contract's limits, keys, repeats, two tenants), every upload ${ANSWERED_AS_THE_REFERENCE}.`,
    rules: [
      ...IDEMPOTENCY_RULES,
      'upload.multipart-files',
      'upload.type-from-bytes',
      'upload.all-or-nothing',
      'upload.accepted-202',
      'upload.202-one-per-file',
      'upload.part-order',
      'upload.limits',
      'upload.only-files-field',
      'upload.filename-verbatim',
      'upload.filename-length',
      'upload.filename-no-nul',
      'errors.413-limits',
      'errors.unsupported-names-file',
      'document.size-bytes',
      'auth.checked-first',
      'request-id.echoed',
    ],
    judge: judgeOracle,
  }),
  list: defineCheck<OracleObservation>({
    id: 'oracle.list',
    profile: 'full',
    area: 'oracle',
    description: `In random sequences, every list (each parameter ordinary, at a boundary the contract states, repeated or unknown; search terms cut from names and texts in every case) ${ANSWERED_AS_THE_REFERENCE}.`,
    rules: [
      ...LIST_VIEW_RULES,
      'list.search-case-folding',
      'list.search-keeps-marks',
      'list.validated-not-clamped',
      'list.unknown-params-ignored',
      'errors.validation-400',
    ],
    judge: judgeOracle,
  }),
  read: defineCheck<OracleObservation>({
    id: 'oracle.read',
    profile: 'full',
    area: 'oracle',
    description: `In random sequences, every read of a document (its id spelled every way the contract names, another tenant's, far and invalid ids) and every request on a path or method the API lacks ${ANSWERED_AS_THE_REFERENCE}; and every run ends within --timeout-ms.`,
    rules: [
      'get.with-content',
      'get.invalid-id-400',
      'get.unknown-404',
      'tenancy.other-is-404',
      'params.integer-digits',
      'params.integer-spelling',
      'params.integer-open-spellings',
      'errors.unknown-path-404',
      'errors.wrong-method-405',
      'errors.allow-header',
      'processing.extracts-text',
      'processing.unreadable',
      'document.error-only-failed',
      'lifecycle.run-ends',
    ],
    judge: judgeOracle,
  }),
  retry: defineCheck<OracleObservation>({
    id: 'oracle.retry',
    profile: 'full',
    area: 'oracle',
    description: `In random sequences, every retry (of finished and processing documents, another tenant's, far and invalid ids) ${ANSWERED_AS_THE_REFERENCE}.`,
    rules: [...RETRY_RULES],
    judge: judgeOracle,
  }),
};
