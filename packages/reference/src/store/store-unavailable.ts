/** How long a client is told to wait before trying again when the store cannot be reached, in seconds. */
const STORE_RETRY_AFTER_S = 5;

/**
 * The store cannot be reached right now (its database is down or unreachable): nothing was changed, and
 * the same request may succeed later. Adapters throw it for connection failures only; the API answers it
 * with a `503 service_unavailable` and `Retry-After` (api/reference-api.ts), in that one place.
 * @example throw new StoreUnavailable('the database is not answering', { cause: error });
 */
export class StoreUnavailable extends Error {
  readonly retryAfterS = STORE_RETRY_AFTER_S;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailable';
  }
}
