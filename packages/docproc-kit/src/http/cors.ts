/** Which browser origins may call a server, and which headers they may send and read. */
export interface CorsPolicy {
  /** Allowed origins; `*` anywhere means any. */
  origins: readonly string[];
  allowedHeaders: readonly string[];
  exposedHeaders: readonly string[];
  methods: readonly string[];
  /** How long a browser may cache a preflight's answer, in seconds. */
  maxAgeS: number;
}

/** The CORS headers of one request, and whether it is a preflight to answer at once. */
export interface CorsAnswer {
  headers: Record<string, string>;
  preflight: boolean;
}

/**
 * Decides the CORS headers of a request, as the `cors` package does with its defaults: any origin gets
 * `*`; a listed origin is reflected (with `Vary: Origin`), another gets no allow header at all. A preflight
 * (OPTIONS with Access-Control-Request-Method) is answered 204 by the caller with these headers.
 * @example const cors = createCors(policy); const { headers, preflight } = cors(method, origin, requestMethod);
 */
export function createCors(
  policy: CorsPolicy,
): (method: string, origin: string | undefined, requestMethod: string | undefined) => CorsAnswer {
  const any = policy.origins.includes('*');
  const allowed = new Set(policy.origins);
  const exposed = policy.exposedHeaders.join(',');
  const preflightHeaders = {
    'Access-Control-Allow-Methods': policy.methods.join(','),
    'Access-Control-Allow-Headers': policy.allowedHeaders.join(','),
    'Access-Control-Max-Age': String(policy.maxAgeS),
  };
  // The answers that do not depend on the request are made once (most servers allow any origin).
  const anyOrigin = { 'Access-Control-Allow-Origin': '*' };
  const anyOriginSimple: CorsAnswer = Object.freeze({
    preflight: false,
    headers: Object.freeze({ ...anyOrigin, 'Access-Control-Expose-Headers': exposed }),
  });
  const anyOriginPreflight: CorsAnswer = Object.freeze({ preflight: true, headers: Object.freeze({ ...anyOrigin, ...preflightHeaders }) });
  return (method, origin, requestMethod) => {
    const preflight = method === 'OPTIONS' && requestMethod !== undefined;
    if (any) return preflight ? anyOriginPreflight : anyOriginSimple;
    const allow: Record<string, string> =
      origin !== undefined && allowed.has(origin) ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : { Vary: 'Origin' };
    if (preflight) return { preflight: true, headers: { ...allow, ...preflightHeaders } };
    return { preflight: false, headers: { ...allow, 'Access-Control-Expose-Headers': exposed } };
  };
}
