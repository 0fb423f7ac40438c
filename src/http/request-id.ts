import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { BUNDLED, ruleTest } from '../contract/bundled.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** This request's id, as sent back in `X-Request-Id` (set by {@link requestId}). */
    id: string;
  }
}

/**
 * Whether a client's `X-Request-Id` may be echoed: the contract's XRequestId header rule (1-200 visible
 * ASCII characters). Anything else (including a header sent twice, which Node joins with ", ") is
 * replaced rather than echoed into logs.
 */
export const isSaneRequestId = ruleTest(BUNDLED.requestId);

/**
 * Gives every request an id (the client's when sane, else a UUID) and sets `X-Request-Id` on the
 * response before anything else can answer, so every response carries it.
 * @example app.use(requestId());
 */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    const id = isSaneRequestId(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
