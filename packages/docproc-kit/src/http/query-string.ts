import { parse } from 'node:querystring';

// querystring.parse stops at 1,000 parameters by default and drops the rest silently, `search` and `limit`
// among them when they come last: every parameter is read instead. The request line bounds the work (Node's
// HTTP parser refuses one over its header size limit, 16 KiB by default).
const EVERY_PARAMETER = { maxKeys: 0 };

/**
 * A query string's parameters as Node's `querystring.parse` reads them (a repeated name is an array, `+`
 * is a space, a malformed escape is kept as it is), every one of them. The queries clients send most
 * (short, nothing escaped) are split by hand: querystring's general machinery was a visible share of a
 * list request (BENCHMARKS.md).
 * @example parseQueryString('limit=20&page=2'); // { limit: '20', page: '2' }
 */
export function parseQueryString(qs: string): Record<string, string | string[]> {
  if (qs.length > 512 || qs.includes('%') || qs.includes('+'))
    return parse(qs, '&', '=', EVERY_PARAMETER) as Record<string, string | string[]>;
  const query: Record<string, string | string[]> = Object.create(null);
  for (const pair of qs.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    const existing = query[name];
    if (existing === undefined) query[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else query[name] = [existing, value];
  }
  return query;
}
