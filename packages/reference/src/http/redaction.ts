// Query parameters whose values are secrets when a client puts its key in the URL by mistake.
const SECRET_PARAM = /key|token|secret|passw|auth/i;

/** What a secret-looking query value is replaced with wherever a request is shown (the log, the request journal). */
export const REDACTED = '[REDACTED]';

/**
 * Whether a query parameter's (decoded) name looks like it carries a secret: `x-api-key`, `api_key`,
 * `token`, `password`, `auth`... The server reads keys only from the header; one sent in the URL by
 * mistake must still never be shown.
 * @example isSecretParam('api_key'); // true
 */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name);
}

/**
 * The URL with the value of every secret-looking query parameter replaced by `[REDACTED]`.
 * Browser-safe: the request journal of the in-process mocks uses it too.
 * @example redactQuery('/x?api_key=s3cret&page=2'); // '/x?api_key=[REDACTED]&page=2'
 */
export function redactQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  // Nothing secret-looking, even once decoded (only `%` escapes can hide a letter): as it is.
  if (!SECRET_PARAM.test(url.slice(at + 1)) && !url.includes('%', at)) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is judged as it is.
      }
      return eq >= 0 && SECRET_PARAM.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/**
 * A parsed query with the value of every secret-looking parameter replaced by `[REDACTED]` (a new
 * object; the same one when nothing is secret).
 * @example redactParsedQuery({ api_key: 's3cret', page: '2' }); // { api_key: '[REDACTED]', page: '2' }
 */
export function redactParsedQuery(query: Record<string, string | string[]>): Record<string, string | string[]> {
  let redacted: Record<string, string | string[]> | undefined;
  for (const name in query) {
    if (!SECRET_PARAM.test(name)) continue;
    redacted ??= { ...query };
    const value = query[name]!;
    redacted[name] = Array.isArray(value) ? value.map(() => REDACTED) : REDACTED;
  }
  return redacted ?? query;
}
