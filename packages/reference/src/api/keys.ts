/** The key the reference service accepts when no keys are configured. */
export const DEV_API_KEY = 'docproc-dev-key';

/** The accepted API keys, each mapped to a tenant id. */
export interface Keyring {
  /** The tenant of a presented key, or undefined when the key is missing or unknown. */
  tenantOf(presented: string | undefined): string | undefined;
}

/**
 * A keyring for a service that lives in one process and keeps nothing (the mock inside a test or a
 * browser): each key is its own tenant, named by its position. The server's keyring (auth.ts) derives
 * tenant ids that cannot be turned back into keys, because it stores them.
 * @example createPlainKeyring(['k1', 'k2']).tenantOf('k2'); // 'tenant-2'
 */
export function createPlainKeyring(keys: readonly string[]): Keyring {
  const tenants = new Map(keys.map((key, i) => [key, `tenant-${i + 1}`]));
  return { tenantOf: (presented) => (presented === undefined ? undefined : tenants.get(presented)) };
}
