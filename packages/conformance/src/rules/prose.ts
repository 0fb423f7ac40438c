/**
 * The rules the contract states in prose, each with a stable id and the exact words it is quoted from.
 * `where` names the description holding the quote (`@docproc-kit/contract/contract-text.js` resolves it); rules.test.ts
 * fails when a quote no longer appears there, so this list cannot drift from the contract silently.
 * Checks declare the ids they give evidence for (their `rules`); CHECKS.md shows the matrix.
 *
 * `unobservable` says why no client can observe a rule in a run (it stays a gap, with that reason).
 */
export interface ProseRule {
  /** Stable id: `topic.kebab-name`. CI history and checks key on it, so never rename one. */
  id: string;
  /** `info`, `op:<operationId>`, `param:<component>`, `schema:<component>[.<property>]`, `response:<component>`, `header:<component>`, `security:<scheme>`. */
  where: string;
  /** The sentence (or the part of it that is the rule), exactly as the contract writes it (whitespace may differ). */
  quote: string;
  unobservable?: string;
}

export const proseRules: readonly ProseRule[] = [
  // Conventions (info.description)
  { id: 'api.path-prefix', where: 'info', quote: 'Every path carries the `/api/v1` prefix itself' },
  { id: 'auth.header', where: 'info', quote: "Every `/api/v1` request carries the client's API key in the `x-api-key` header." },
  {
    id: 'auth.checked-first',
    where: 'info',
    quote: 'A missing or unknown key is answered `401` before anything else about the request is looked at.',
  },
  { id: 'tenancy.own-documents', where: 'info', quote: 'Each key is its own tenant: it sees only the documents uploaded with it' },
  {
    id: 'tenancy.other-is-404',
    where: 'info',
    quote: "another tenant's document is a `404`, never a `403`, so ids do not leak across tenants",
  },
  {
    id: 'errors.problem-json',
    where: 'info',
    quote: 'Every error is an RFC 9457 problem (`application/problem+json`) with a stable `code` that clients switch on.',
  },
  {
    id: 'errors.validation-400',
    where: 'info',
    quote: 'Validation errors are always `400` (never `422`) and list what was wrong in `errors`.',
  },
  { id: 'errors.unknown-path-404', where: 'info', quote: 'An unknown path under `/api/v1` is a `404` problem (`not_found`)' },
  {
    id: 'errors.wrong-method-405',
    where: 'info',
    quote: 'a known path with the wrong method is a `405` problem (`method_not_allowed`) with an `Allow` header',
  },
  {
    id: 'params.integer-digits',
    where: 'info',
    quote: '**Integers in paths and queries** (`page`, `limit`, `document_id`) are written in ASCII decimal digits.',
  },
  {
    id: 'limits.defaults',
    where: 'info',
    quote:
      '25 MiB (26214400 bytes) per file, 20 files per upload, `limit` at most 100, `search` at most 200 characters, filenames at most 255 characters.',
  },
  {
    id: 'params.integer-spelling',
    where: 'info',
    quote:
      'Any other spelling but a leading `+` is a `400`, though lenient parsers read a number in it: spaces, a fraction (`10.0`), an exponent (`1e1`), hex (`0xa`), underscores (`1_0`), other digits (`١٠`) or an empty value.',
  },
  {
    id: 'params.integer-open-spellings',
    where: 'info',
    quote:
      "A leading zero (`010`) or a `+` (`+10`) may be read either way, as most stacks' integer parsers read them: as the number (answered as `10` would be) or as a `400`.",
  },
  { id: 'request-id.every-response', where: 'info', quote: 'Every response carries `X-Request-Id`.' },
  {
    id: 'request-id.echoed',
    where: 'info',
    quote: 'A request that sends a sane one (1-200 visible ASCII characters) gets it echoed',
  },
  { id: 'request-id.generated', where: 'info', quote: 'otherwise the server makes one' },
  {
    id: 'text.no-nul',
    where: 'info',
    quote: 'Text a client sends (a filename, `search`) holds no U+0000 (NUL): one that does is a `400` (`invalid_request`) naming it',
  },
  {
    id: 'limits.slow-upload-408',
    where: 'info',
    quote:
      "one slower than a deployment's minimum rate (the reference server's default: 1 KiB/s averaged over 10 s) is cut with a `408` problem",
    unobservable:
      "the minimum rate is the deployment's own and undocumented to the suite: proving the cut means dripping one upload for the whole averaging window (10 s and more) at a rate only the deployment knows",
  },
  {
    id: 'transient.retry-after',
    where: 'info',
    quote:
      'Any operation may be answered `429` (`too_many_requests`) or `503` (`service_unavailable`) with a `Retry-After` header in seconds, as gateways and overloaded deployments do',
  },
  // Document lifecycle (info.description)
  { id: 'lifecycle.created-processing', where: 'info', quote: 'A document is created `processing` by an upload.' },
  {
    id: 'lifecycle.run-ends',
    where: 'info',
    quote: 'Its processing run ends `completed` (the extracted text is in `content`) or `failed` (the reason is in `error`).',
  },
  {
    id: 'retry.starts-new-run',
    where: 'info',
    quote:
      'A retry of a `completed` or `failed` document starts a new run: the document is `processing` again, `attempts` goes up by one, and `content` and `error` are cleared until the run ends.',
  },
  { id: 'retry.busy-409', where: 'info', quote: 'A retry while a run is in progress is a `409`.' },
  { id: 'processing.unreadable', where: 'info', quote: 'A file that cannot be read fails with `error.code` `unreadable_document`' },
  {
    id: 'processing.transient',
    where: 'info',
    quote: 'a transient fault fails with `processing_error` and is worth a retry',
    unobservable: 'a client cannot cause a transient fault in the target on purpose',
  },
  { id: 'processing.extracts-text', where: 'info', quote: 'Processing extracts the text layer of PDFs' },
  {
    id: 'processing.ocr',
    where: 'info',
    quote: 'reads PDF pages without one (scans) and images (JPEG, PNG) with OCR',
  },
  {
    id: 'processing.no-text',
    where: 'info',
    quote: 'A file that was read but holds no text (a blank or hopeless scan) completes with `content` `""`.',
  },
  // uploadDocuments
  {
    id: 'upload.multipart-files',
    where: 'op:uploadDocuments',
    quote: 'Uploads documents as `multipart/form-data`, one `files[]` part per file (the field is repeated).',
  },
  {
    id: 'upload.type-from-bytes',
    where: 'op:uploadDocuments',
    quote:
      "Each file must be a PDF, JPEG or PNG; the type is detected from the file's leading bytes, never from its name or the part's `Content-Type`.",
  },
  {
    id: 'upload.all-or-nothing',
    where: 'op:uploadDocuments',
    quote: 'The upload is **all or nothing**: when any part is rejected, no document is created and nothing is stored.',
  },
  { id: 'upload.accepted-202', where: 'op:uploadDocuments', quote: 'On success the answer is `202 Accepted`' },
  {
    id: 'upload.202-one-per-file',
    where: 'op:uploadDocuments.response:202',
    quote: 'Every file was accepted and stored; one document per file, in the order of the parts, each `processing`.',
  },
  { id: 'upload.part-order', where: 'op:uploadDocuments', quote: 'every document comes back `processing`, in the order its part arrived' },
  {
    id: 'upload.limits',
    where: 'op:uploadDocuments',
    quote: 'Limits (defaults): at most 25 MiB (26214400 bytes) per file and 20 files per request.',
  },
  {
    id: 'upload.only-files-field',
    where: 'op:uploadDocuments',
    quote: 'Only `files[]` parts are accepted: a part under any other name is a `400`',
  },
  {
    id: 'upload.filename-verbatim',
    where: 'op:uploadDocuments',
    quote:
      'The `filename` of each part is kept exactly as sent (UTF-8, including `filename*` per RFC 5987) and is only ever data: it is never used as a path.',
  },
  {
    id: 'upload.filename-length',
    where: 'op:uploadDocuments',
    quote: 'A filename longer than 255 characters (Unicode code points) is a `400` (`invalid_request`)',
  },
  {
    id: 'upload.filename-no-nul',
    where: 'op:uploadDocuments',
    quote: 'So is a filename holding U+0000 (NUL), as `filename*` can encode it (`%00`).',
  },
  {
    id: 'idempotency.replay',
    where: 'op:uploadDocuments',
    quote:
      'a repeat of it (same key, same API key, same files in the same order with the same names) replays the first `202`, with the same document ids, and creates nothing',
  },
  {
    id: 'idempotency.remembered-24h',
    where: 'op:uploadDocuments',
    quote: 'the first successful upload under a key is remembered for 24 hours',
    unobservable: 'a run would have to last 24 hours to see a key expire',
  },
  {
    id: 'idempotency.failure-forgotten',
    where: 'op:uploadDocuments',
    quote: 'A failed upload is not remembered, so it can be retried under the same key.',
  },
  {
    id: 'idempotency.replay-header',
    where: 'header:IdempotentReplayed',
    quote:
      '`true` when this response is the replay of an earlier upload with the same `Idempotency-Key` (nothing was created by this request). Absent otherwise.',
  },
  { id: 'idempotency.scoped-to-api-key', where: 'param:IdempotencyKey', quote: 'Keys are scoped to the API key' },
  {
    id: 'idempotency.reused-409',
    where: 'param:IdempotencyKey',
    quote: 'The same key with different files is a `409` `idempotency_key_reused`',
  },
  {
    id: 'idempotency.in-use-409',
    where: 'param:IdempotencyKey',
    quote: 'a repeat that arrives while the first is still being handled is a `409` `idempotency_key_in_use`',
  },
  // listDocuments
  {
    id: 'list.newest-first',
    where: 'op:listDocuments',
    quote: 'newest first (`created_at` descending, then `document_id` descending, so the order is total and stable while paging)',
  },
  { id: 'list.status-filter', where: 'op:listDocuments', quote: 'Filters combine: `status_filter` keeps one status' },
  { id: 'list.search', where: 'op:listDocuments', quote: '`search` keeps documents whose filename or extracted text contains the term' },
  { id: 'list.no-content', where: 'op:listDocuments', quote: 'Lists carry `DocumentSummary` records (no `content`)' },
  {
    id: 'list.validated-not-clamped',
    where: 'op:listDocuments',
    quote: 'Every parameter is validated and nothing is clamped: an invalid or repeated parameter is a `400` that names it.',
  },
  { id: 'list.unknown-params-ignored', where: 'op:listDocuments', quote: 'Unknown parameters are ignored (so cache-busters do no harm).' },
  {
    id: 'list.page-past-end',
    where: 'op:listDocuments',
    quote: 'A page past the end is a `200` with an empty `documents` array and the true `pagination` totals.',
  },
  {
    id: 'list.search-literal',
    where: 'param:Search',
    quote: 'a literal substring match (no wildcards, no regular expressions)',
  },
  {
    id: 'list.search-case-folding',
    where: 'param:Search',
    quote: 'case-insensitive under Unicode full case folding',
  },
  { id: 'list.search-no-nul', where: 'param:Search', quote: 'none of them U+0000 (NUL): a term holding one (`%00`) is a `400`' },
  { id: 'list.search-keeps-marks', where: 'param:Search', quote: 'Accents and other marks are not ignored.' },
  {
    id: 'list.search-not-completed',
    where: 'param:Search',
    quote: 'Documents that have not completed have no text yet, so only their filename can match.',
  },
  { id: 'list.limit-default', where: 'param:Limit', quote: 'Defaults to 20. Larger values are a `400`, not clamped.' },
  { id: 'list.page-default', where: 'param:Page', quote: '1-based page number. Defaults to 1' },
  { id: 'list.total', where: 'schema:Pagination.total', quote: 'How many documents match the filters, over all pages.' },
  { id: 'list.total-pages', where: 'schema:Pagination.total_pages', quote: 'ceil(total / limit); 0 when nothing matches.' },
  { id: 'list.page-echoed', where: 'schema:Pagination.page', quote: 'The page returned (as requested).' },
  { id: 'list.limit-used', where: 'schema:Pagination.limit', quote: 'The page size used.' },
  // getDocument
  {
    id: 'get.with-content',
    where: 'op:getDocument',
    quote: "Returns one of the caller's documents with its extracted text (`content`, null until a run completes).",
  },
  { id: 'get.invalid-id-400', where: 'op:getDocument', quote: 'An id that is not a positive integer within 2^53-1 is a `400`' },
  { id: 'get.unknown-404', where: 'op:getDocument', quote: 'an id that does not exist, or belongs to another tenant, is a `404`' },
  // retryDocument
  {
    id: 'retry.accepted-202',
    where: 'op:retryDocument',
    quote: 'Starts a new processing run on the stored file of a `failed` or `completed` document',
  },
  {
    id: 'retry.answer',
    where: 'op:retryDocument',
    quote:
      'The answer is `202` with the document as it now is: `processing`, `attempts` one higher, `content`, `error` and `processed_at` cleared.',
  },
  {
    id: 'retry.busy-document-busy',
    where: 'op:retryDocument',
    quote: 'A document that is already `processing` is a `409` (`document_busy`)',
  },
  // Schemas
  {
    id: 'document.ids-never-reused',
    where: 'schema:DocumentFields.document_id',
    quote: 'ids start at 1 and are never reused',
  },
  { id: 'document.size-bytes', where: 'schema:DocumentFields.size_bytes', quote: 'The size of the stored file in bytes.' },
  {
    id: 'document.attempts',
    where: 'schema:DocumentFields.attempts',
    quote: 'How many processing runs have been started (1 after upload, +1 per retry).',
  },
  { id: 'document.error-only-failed', where: 'schema:DocumentFields.error', quote: 'null unless `status` is `failed`' },
  { id: 'document.created-at', where: 'schema:DocumentFields.created_at', quote: 'When the document was uploaded.' },
  { id: 'document.updated-at', where: 'schema:DocumentFields.updated_at', quote: 'When anything about the document last changed.' },
  {
    id: 'document.processed-at',
    where: 'schema:DocumentFields.processed_at',
    quote: 'When the last run finished; null while `processing`.',
  },
  {
    id: 'document.unreadable-fails-again',
    where: 'schema:DocumentError.code',
    quote: 'retrying the same bytes will fail again',
  },
  {
    id: 'document.content-never-empty',
    where: 'schema:Document.content',
    quote: 'Text that was read is never empty.',
  },
  {
    id: 'document.content-ocr',
    where: 'schema:Document.content',
    quote: "The extracted text: a PDF page's text layer, or OCR of the page when it has none (a scan), and OCR for images.",
  },
  { id: 'document.content-same-on-retry', where: 'schema:Document.content', quote: 'a retry of the same bytes gives the same result' },
  // Errors
  { id: 'problem.type-about-blank', where: 'schema:Problem.type', quote: 'Always `about:blank`' },
  { id: 'problem.request-id', where: 'schema:Problem.request_id', quote: "The request's X-Request-Id" },
  {
    id: 'problem.title-reason-phrase',
    where: 'schema:Problem.title',
    quote: 'A short summary of the problem type (the HTTP reason phrase).',
  },
  { id: 'problem.detail-for-humans', where: 'schema:Problem.detail', quote: 'What went wrong with this request, for humans.' },
  { id: 'problem.status-repeated', where: 'schema:Problem.status', quote: 'The HTTP status code, repeated so the body stands alone.' },
  {
    id: 'validation.body-less-upload',
    where: 'schema:FieldError.name',
    quote:
      'An upload with no body, or without a multipart Content-Type, may be named either way: as the missing `files[]` part (`in: body`) or as the `Content-Type` header (`in: header`)',
  },
  { id: 'errors.unsupported-names-file', where: 'response:UnsupportedMediaType', quote: '`detail` names it. Nothing was stored.' },
  {
    id: 'errors.upload-400-causes',
    where: 'response:UploadBadRequest',
    quote: 'The multipart body was missing, malformed or had no `files[]` part, or it had a part under another field name.',
  },
  { id: 'errors.upload-400-nothing-stored', where: 'response:UploadBadRequest', quote: 'Nothing was stored.' },
  {
    id: 'errors.413-limits',
    where: 'response:PayloadTooLarge',
    quote: 'A file was over the size limit, or there were more files than the per-request limit. Nothing was stored.',
  },
  { id: 'errors.409-idempotency-nothing-stored', where: 'response:IdempotencyConflict', quote: 'Nothing was stored.' },
  { id: 'errors.500-unexpected', where: 'response:InternalError', quote: 'The server failed unexpectedly.' },
  {
    id: 'errors.no-internals',
    where: 'response:InternalError',
    quote: 'The body never carries internals such as stack traces.',
    unobservable: 'a client cannot make a conforming target fail unexpectedly, so there is no 500 body to read',
  },
  { id: 'errors.allow-header', where: 'response:MethodNotAllowed', quote: 'the `Allow` header lists the supported method' },
];
