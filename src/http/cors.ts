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
  const anyOrigin = { 'Access-Control-Allow-Origin': '*' };
  return (method, origin, requestMethod) => {
    const allow: Record<string, string> = any
      ? anyOrigin
      : origin !== undefined && allowed.has(origin)
        ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }
        : { Vary: 'Origin' };
    if (method === 'OPTIONS' && requestMethod !== undefined) {
      return { preflight: true, headers: { ...allow, ...preflightHeaders } };
    }
    return { preflight: false, headers: { ...allow, 'Access-Control-Expose-Headers': exposed } };
  };
}
