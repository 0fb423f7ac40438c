import { createHmac } from 'node:crypto';
import type { TenantNaming } from '@docproc-kit/reference/api/keys.js';

/**
 * The server's tenant naming for the keyring (createKeyring in @docproc-kit/reference): an HMAC of the key
 * under `salt` (a random secret of the data dir), so a stored tenant id cannot be reversed even for a
 * guessable key such as the dev key. Each key is hashed once, when the keyring is built.
 * @example const keyring = createKeyring(apiKeys, saltedTenants(store.tenantSalt));
 */
export function saltedTenants(salt: string): TenantNaming {
  return (key) => createHmac('sha256', salt).update(key, 'utf8').digest('hex').slice(0, 32);
}
