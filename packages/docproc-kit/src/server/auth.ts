import { createHmac } from 'node:crypto';
import type { Keyring } from '@docproc-kit/reference/api/keys.js';

/**
 * Builds the keyring: a presented key is looked up in a Map of the configured keys. A lookup compares
 * a string's length and hash before its characters, so a wrong key is turned away without its
 * characters ever being compared with a valid key's: how long that takes does not depend on how much
 * of a valid key it shares (at most, by nanoseconds, on whether it has a valid key's length). And a
 * request hashes nothing, where a digest of the key for `timingSafeEqual` would be a visible part of
 * every list and read (BENCHMARKS.md). Tenant ids are an HMAC of the key under `salt` (a
 * random secret of the data dir), so a stored tenant id cannot be reversed even for a guessable key
 * such as the dev key.
 * @example const keyring = createKeyring(['k1', 'k2'], store.tenantSalt); keyring.tenantOf('k1');
 */
export function createKeyring(keys: readonly string[], salt: string): Keyring {
  const tenants = new Map(keys.map((key) => [key, createHmac('sha256', salt).update(key, 'utf8').digest('hex').slice(0, 32)]));
  return { tenantOf: (presented) => (presented ? tenants.get(presented) : undefined) };
}
