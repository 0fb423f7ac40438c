import { BUNDLED, ruleTest } from '../contract/bundled.js';

/**
 * Whether a client's `X-Request-Id` may be echoed: the contract's XRequestId header rule (1-200 visible
 * ASCII characters). Anything else (including a header sent twice, which Node joins with ", ") is
 * replaced rather than echoed into logs.
 */
export const isSaneRequestId = ruleTest(BUNDLED.requestId);
