import type { IncomingMessage } from 'node:http';
import { BUNDLED, ruleTest } from '@docproc-kit/contract/bundled.js';

/**
 * Whether a client's `X-Request-Id` may be echoed: the contract's XRequestId header rule (1-200 visible
 * ASCII characters). Anything else (including a header sent twice, which Node joins with ", ") is
 * replaced rather than echoed into logs.
 */
export const isSaneRequestId = ruleTest(BUNDLED.requestId);

/**
 * The id of a request: the client's `X-Request-Id` when it may be echoed, else a new UUID.
 * @example res.setHeader('X-Request-Id', requestIdOf(req));
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  // Web Crypto's: this module also runs in browsers (the in-process mock).
  return typeof given === 'string' && isSaneRequestId(given) ? given : globalThis.crypto.randomUUID();
}
