import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Keyring } from './api/keys.js';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Builds the keyring. Keys are compared as SHA-256 digests with `timingSafeEqual`, over every
 * configured key, so neither the length nor the prefix of a valid key leaks through timing. Tenant
 * ids are an HMAC of the key under `salt` (a random secret of the data dir), so a stored tenant id
 * cannot be reversed even for a guessable key such as the dev key.
 * @example const keyring = createKeyring(['k1', 'k2'], store.tenantSalt); keyring.tenantOf('k1');
 */
export function createKeyring(keys: readonly string[], salt: string): Keyring {
  const entries = keys.map((key) => ({
    digest: digest(key),
    tenant: createHmac('sha256', salt).update(key, 'utf8').digest('hex').slice(0, 32),
  }));
  return {
    tenantOf(presented) {
      if (presented === undefined || presented === '') return undefined;
      const candidate = digest(presented);
      let tenant: string | undefined;
      for (const entry of entries) {
        if (timingSafeEqual(candidate, entry.digest)) tenant = entry.tenant;
      }
      return tenant;
    },
  };
}
