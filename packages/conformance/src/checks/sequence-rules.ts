// The rules the random-sequence runs (the model run and the oracle) both judge, listed once: what a list
// view, a retry and an Idempotency-Key must do over a sequence of operations. Each run's checks add the
// rules only it judges.

/** What every list view must show: its filters, its order, its pages and totals, the caller's documents only. */
export const LIST_VIEW_RULES = [
  'list.newest-first',
  'list.status-filter',
  'list.search',
  'list.search-literal',
  'list.search-not-completed',
  'list.no-content',
  'list.page-past-end',
  'list.total',
  'list.total-pages',
  'list.page-echoed',
  'list.limit-used',
  'list.limit-default',
  'list.page-default',
  'tenancy.own-documents',
] as const;

/** What a retry must do: start a new run of a finished document, refuse a processing one, count attempts. */
export const RETRY_RULES = [
  'retry.starts-new-run',
  'retry.busy-409',
  'retry.accepted-202',
  'retry.answer',
  'retry.busy-document-busy',
  'document.attempts',
] as const;

/** What an Idempotency-Key must do over repeats. */
export const IDEMPOTENCY_RULES = [
  'idempotency.replay',
  'idempotency.failure-forgotten',
  'idempotency.replay-header',
  'idempotency.scoped-to-api-key',
  'idempotency.reused-409',
] as const;
