import type { components } from '@docproc-kit/contract/generated/openapi.js';

/** A stable error code of the contract's `ErrorCode` enum. */
export type ErrorCode = components['schemas']['ErrorCode'];
/** One offending parameter or field of an `invalid_request` problem. */
export type FieldError = components['schemas']['FieldError'];
/** An RFC 9457 problem document as the contract defines it. */
export type Problem = components['schemas']['Problem'];

interface Template {
  status: number;
  title: string;
  detail: string;
}

// Typed as a Record over the generated enum so a code added to the contract fails the type check
// until it has a template here.
const TEMPLATES: Record<ErrorCode, Template> = {
  unauthorized: { status: 401, title: 'Unauthorized', detail: 'Send your API key in the x-api-key header.' },
  invalid_request: { status: 400, title: 'Bad Request', detail: 'The request is invalid.' },
  not_found: { status: 404, title: 'Not Found', detail: 'Nothing exists at this path.' },
  method_not_allowed: { status: 405, title: 'Method Not Allowed', detail: 'This method is not supported here.' },
  document_busy: { status: 409, title: 'Conflict', detail: 'The document is already processing; retry after it completes or fails.' },
  idempotency_key_reused: { status: 409, title: 'Conflict', detail: 'This Idempotency-Key was already used for an upload of other files.' },
  idempotency_key_in_use: {
    status: 409,
    title: 'Conflict',
    detail: 'An upload with this Idempotency-Key is still in progress; retry shortly.',
  },
  file_too_large: { status: 413, title: 'Content Too Large', detail: 'A file is larger than the per-file limit.' },
  too_many_files: { status: 413, title: 'Content Too Large', detail: 'Too many files in one request.' },
  unsupported_media_type: { status: 415, title: 'Unsupported Media Type', detail: 'A file is not a PDF, JPEG or PNG file.' },
  too_many_requests: { status: 429, title: 'Too Many Requests', detail: 'Too many requests; retry later.' },
  service_unavailable: { status: 503, title: 'Service Unavailable', detail: 'The service is unavailable; retry later.' },
  internal_error: {
    status: 500,
    title: 'Internal Server Error',
    detail: 'The server failed to handle this request; quote the request id when reporting it.',
  },
};

/**
 * The one error type routes throw: a contract error code, a detail for humans, and for
 * `invalid_request` the offending fields. Only the HTTP layer makes one: parsers of the request
 * (path, query, headers, JSON bodies) throw it at once; the store, the processor and the upload
 * service return their expected outcomes as values, which routes turn into a response or this.
 * @example throw new ApiError('not_found', `Document ${id} does not exist.`);
 */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ErrorCode,
    detail?: string,
    readonly extra: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      /** Another status than the code's own, with its reason phrase: the protocol's 408, 417 and 431 are `invalid_request`. */
      status?: { status: number; title: string };
    } = {},
  ) {
    const template = TEMPLATES[code];
    super(detail ?? template.detail);
    this.name = 'ApiError';
    this.status = extra.status?.status ?? template.status;
    this.title = extra.status?.title ?? template.title;
  }
}

/**
 * An `invalid_request` error listing every offending parameter.
 * @example throw invalidRequest([{ in: 'query', name: 'page', message: 'must be an integer >= 1' }]);
 */
export function invalidRequest(errors: FieldError[], detail?: string): ApiError {
  const count = errors.length;
  return new ApiError('invalid_request', detail ?? `The request has ${count} invalid parameter${count === 1 ? '' : 's'}.`, { errors });
}

/**
 * The problem document for an error, as it goes on the wire.
 * @example problemOf(new ApiError('not_found'), { instance: '/api/v1/documents/get_document/9', requestId: 'r-1' });
 */
export function problemOf(error: ApiError, { instance, requestId }: { instance?: string; requestId?: string }): Problem {
  const problem: Problem = {
    type: 'about:blank',
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
  };
  // Where the request's path was never read (a request that is not HTTP), there is none to name.
  if (instance !== undefined) problem.instance = instance;
  if (requestId !== undefined) problem.request_id = requestId;
  if (error.extra.errors) problem.errors = error.extra.errors;
  return problem;
}
