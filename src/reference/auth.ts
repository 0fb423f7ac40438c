import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { ApiError } from '../http/errors.js';
import { requestState } from '../http/request-state.js';

/** The key the server accepts when no keys are configured. */
export const DEV_API_KEY = 'docproc-dev-key';

/** The configured API keys, each mapped to a tenant id that cannot be turned back into the key. */
export interface Keyring {
  /** The tenant of a presented key, or undefined when the key is missing or unknown. */
  tenantOf(presented: string | undefined): string | undefined;
}

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

/**
 * Rejects a request without a configured `x-api-key` (401, before any validation) and records the
 * caller's tenant in the request state.
 * @example router.use(requireApiKey(keyring));
 */
export function requireApiKey(keyring: Keyring): RequestHandler {
  return (req, res, next) => {
    const presented = req.get('x-api-key');
    const tenant = keyring.tenantOf(presented);
    if (!tenant) {
      throw new ApiError(
        'unauthorized',
        presented ? 'The API key in the x-api-key header is not valid.' : 'Send your API key in the x-api-key header.',
      );
    }
    requestState(res).tenant = tenant;
    next();
  };
}

/** The tenant `requireApiKey` recorded for this response. */
export function tenantOf(res: Response): string {
  const { tenant } = requestState(res);
  if (tenant === undefined) throw new Error('requireApiKey must run before this handler');
  return tenant;
}
