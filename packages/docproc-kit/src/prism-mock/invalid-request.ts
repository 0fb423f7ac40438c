import type { FieldError } from '@docproc-kit/reference/http/problem.js';
import type { IHttpOperation } from '@stoplight/types';
import type { InputViolation } from './prism-engine.js';

const PLACES = new Set(['query', 'path', 'header']);

// A header's name as the contract writes it (`Idempotency-Key`), though Prism reports it lower-cased.
function headerName(name: string, operations: IHttpOperation[]): string {
  for (const op of operations) for (const h of op.request?.headers ?? []) if (h.name.toLowerCase() === name.toLowerCase()) return h.name;
  return name;
}

/**
 * One of Prism's request violations in the contract's `errors` shape: `{in, name, message}`, the message
 * without Prism's "Request query parameter limit" prefix, which `in` and `name` already say.
 * @example fieldError({ path: ['query', 'limit'], message: 'Request query parameter limit must be <= 100' }, ops); // { in: 'query', name: 'limit', message: 'must be <= 100' }
 */
function fieldError({ path, message }: InputViolation, operations: IHttpOperation[]): FieldError {
  const [place, ...rest] = path;
  if (place && PLACES.has(place) && rest.length > 0) {
    const name = place === 'header' ? headerName(rest.join('.'), operations) : rest.join('.');
    const stripped = message.replace(new RegExp(`^Request ${place} parameter \\S+\\s+`, 'i'), '');
    return { in: place as FieldError['in'], name, message: stripped };
  }
  const name = place === 'body' && rest.length > 0 ? rest.join('.') : 'body';
  return { in: 'body', name, message: message.replace(/^Request body\s+/i, '') };
}

/**
 * The 400 Prism chose for an invalid request, with the parameters that are actually wrong: the contract's
 * example (or a generated body) names one fixed parameter, so its `errors` and `detail` are replaced by
 * what Prism's validator found. Prism's own report stays in the `sl-violations` header.
 * @example invalidRequestBody(answer.body, answer.invalid, engine.operations);
 */
export function invalidRequestBody(body: unknown, invalid: InputViolation[], operations: IHttpOperation[]): Record<string, unknown> {
  const seen = new Set<string>();
  const errors = invalid
    .map((v) => fieldError(v, operations))
    .filter((e) => {
      const key = `${e.in}\u0000${e.name}\u0000${e.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const names = new Set(errors.map((e) => `${e.in}\u0000${e.name}`)).size;
  const base = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return {
    ...base,
    status: 400,
    code: 'invalid_request',
    detail: `The request has ${names} invalid parameter${names === 1 ? '' : 's'}.`,
    errors,
  };
}
