import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import { readInteger } from '@docproc-kit/contract/decimal-integer.js';
import { textFault } from '@docproc-kit/contract/storable-text.js';
import { type FieldError, invalidRequest } from './http/problem.js';
import type { DocumentStatus, ListQuery } from './model.js';

/** The document statuses, as the contract lists them. */
export const STATUSES = BUNDLED.list.statuses as readonly DocumentStatus[];
/** Page size when `limit` is not given (the contract's default). */
export const DEFAULT_LIMIT = BUNDLED.list.defaultLimit;
/** The largest `limit` (the contract's maximum). */
export const MAX_LIMIT = BUNDLED.list.maxLimit;
/** The longest `search` term, in characters (code points, as JSON Schema counts; the contract's maxLength). */
export const MAX_SEARCH_LENGTH = BUNDLED.list.maxSearchLength;

// The contract's reading of an integer, with the spellings it leaves to each service refused: "+1" and
// "010" are a 400 rather than guessed at (a leading zero is octal to some parsers: strtol reads "010" as 8).
const parseInteger = (raw: string, min: number, max: number) => readInteger(raw, { min, max, leadingZero: false, plus: false });

type QueryValue = string | string[] | undefined | unknown;

// Express's simple query parser turns a repeated parameter into an array; the contract says that
// is a 400, never "first wins".
function single(query: Record<string, QueryValue>, name: string, errors: FieldError[]): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    errors.push({ in: 'query', name, message: 'must be given at most once' });
    return undefined;
  }
  return value;
}

/**
 * Validates the list query: every parameter checked, nothing clamped, unknown ones ignored.
 * @example parseListQuery({ page: '2', status_filter: 'failed' }); // { page: 2, limit: 20, status: 'failed' }
 */
export function parseListQuery(query: Record<string, QueryValue>): ListQuery {
  const errors: FieldError[] = [];
  const result: ListQuery = { page: 1, limit: DEFAULT_LIMIT };

  const page = single(query, 'page', errors);
  if (page !== undefined) {
    const value = parseInteger(page, 1, BUNDLED.maxPage);
    if (value === undefined) errors.push({ in: 'query', name: 'page', message: `must be an integer >= 1 (at most ${BUNDLED.maxPage})` });
    else result.page = value;
  }

  const limit = single(query, 'limit', errors);
  if (limit !== undefined) {
    const value = parseInteger(limit, 1, MAX_LIMIT);
    if (value === undefined) errors.push({ in: 'query', name: 'limit', message: `must be an integer from 1 to ${MAX_LIMIT}` });
    else result.limit = value;
  }

  const status = single(query, 'status_filter', errors);
  if (status !== undefined) {
    if ((STATUSES as readonly string[]).includes(status)) result.status = status as DocumentStatus;
    else errors.push({ in: 'query', name: 'status_filter', message: `must be one of ${STATUSES.join(', ')}` });
  }

  const search = single(query, 'search', errors);
  if (search !== undefined) {
    const length = [...search].length;
    const fault = textFault(search);
    if (length < 1 || length > MAX_SEARCH_LENGTH)
      errors.push({ in: 'query', name: 'search', message: `must be 1 to ${MAX_SEARCH_LENGTH} characters` });
    else if (fault) errors.push({ in: 'query', name: 'search', message: fault });
    else result.search = search;
  }

  if (errors.length > 0) throw invalidRequest(errors);
  return result;
}

/**
 * Validates a `document_id` path segment: decimal digits only, 1 to 2^53-1.
 * @example parseDocumentId('42'); // 42
 */
export function parseDocumentId(raw: string): number {
  const value = parseInteger(raw, 1, BUNDLED.maxId);
  if (value === undefined) {
    throw invalidRequest([{ in: 'path', name: 'document_id', message: `must be an integer from 1 to ${BUNDLED.maxId}` }]);
  }
  return value;
}
