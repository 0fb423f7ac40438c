import { type ApiRequest, type ApiResponse, jsonResponse } from '../http/exchange.js';
import { type FieldError, invalidRequest } from '../http/problem.js';
import { toHar } from './har.js';
import { entryJson, type JournalFilter, matches, type RequestJournal } from './request-journal.js';

const PARAMS = ['status', 'operation', 'format'];
const STATUS = /^([1-5])(?:xx|XX|(\d\d))$/;

// Strict, as every control: a misspelt filter must not silently show everything.
function parseListQuery(query: ApiRequest['query'], operationIds: readonly string[]): { filter: JournalFilter; har: boolean } {
  const errors: FieldError[] = [];
  const filter: JournalFilter = {};
  let har = false;
  for (const name of Object.keys(query)) {
    const value = query[name];
    if (!PARAMS.includes(name)) {
      errors.push({ in: 'query', name, message: `unknown parameter; known: ${PARAMS.join(', ')}` });
      continue;
    }
    if (typeof value !== 'string') {
      errors.push({ in: 'query', name, message: 'must be given once' });
      continue;
    }
    if (name === 'status') {
      const match = STATUS.exec(value);
      if (!match) errors.push({ in: 'query', name, message: 'must be a status (404) or a class (4xx)' });
      else filter.status = match[2] === undefined ? { class: Number(match[1]) } : { exact: Number(value) };
    } else if (name === 'operation') {
      if (operationIds.includes(value)) filter.operation = value;
      else errors.push({ in: 'query', name, message: `must be one of ${operationIds.join(', ')}` });
    } else if (value === 'har') har = true;
    else if (value !== 'json') errors.push({ in: 'query', name, message: 'must be json or har' });
  }
  if (errors.length > 0) throw invalidRequest(errors);
  return { filter, har };
}

/**
 * `GET /_mock/requests`: the caller's tenant's last answered requests, newest first, filtered by
 * `status` (404, or 4xx) and `operation` (an operationId), as JSON or as a HAR 1.2 log (`format=har`).
 * @example const list = listRequests(journal, operationIds); await list(request, tenant);
 */
export function listRequests(journal: RequestJournal, operationIds: readonly string[]) {
  return async (request: ApiRequest, tenant: string): Promise<ApiResponse> => {
    const { filter, har } = parseListQuery(request.query, operationIds);
    const entries = (await journal.list(tenant)).filter((entry) => matches(entry, filter));
    if (har) return jsonResponse(200, JSON.stringify(toHar(entries, `http://${request.header('host') ?? 'localhost'}`)));
    return jsonResponse(200, JSON.stringify({ capacity: journal.capacity, requests: entries.map(entryJson) }));
  };
}
