/** The key the reference service accepts when no keys are configured. */
export const DEV_API_KEY = 'docproc-dev-key';

/** The accepted API keys, each mapped to a tenant id. */
export interface Keyring {
  /** The keys accepted, in the order given (the dev key alone when none was configured). */
  readonly keys: readonly string[];
  /** The tenant of a presented key, or undefined when the key is missing, empty or unknown. */
  tenantOf(presented: string | undefined): string | undefined;
}

/**
 * Names a key's tenant (`index` is its position among the keys). A service that stores tenant ids passes a
 * one-way naming (the server: an HMAC under its data dir's secret salt), so a stored id never gives a key back.
 */
export type TenantNaming = (key: string, index: number) => string;

/** Tenants named by position, for a service that lives in one process and keeps nothing (a mock in a test or a page). */
export const tenantsByPosition: TenantNaming = (_key, index) => `tenant-${index + 1}`;

/**
 * The API-key rule of every entry point (the server, the MSW handlers, the fetch mock): the configured keys
 * are accepted, or the dev key alone when none are; each key is its own tenant; a missing, empty or unknown
 * key has none (a 401). A presented key is looked up in a Map, which compares a string's length and hash
 * before its characters, so a wrong key is turned away without its characters being compared with a valid
 * key's, and a request hashes nothing. Throws a TypeError for a key that is not a non-empty string.
 * Browser-safe.
 * @example createKeyring(['k1', 'k2']).tenantOf('k2'); // 'tenant-2'
 */
export function createKeyring(configured: readonly string[] | undefined, nameTenant: TenantNaming = tenantsByPosition): Keyring {
  const keys = configured?.length ? [...configured] : [DEV_API_KEY];
  if (keys.some((key) => typeof key !== 'string' || key === '')) throw new TypeError('API keys must be non-empty strings');
  const tenants = new Map(keys.map((key, i) => [key, nameTenant(key, i)]));
  return { keys, tenantOf: (presented) => (presented ? tenants.get(presented) : undefined) };
}
