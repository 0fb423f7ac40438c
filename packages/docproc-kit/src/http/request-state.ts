import type { ServerResponse as Response } from 'node:http';

/**
 * What middleware learned about one request, for the handlers after it. Kept here, typed, instead
 * of in `res.locals` (whose values Express types as `any`, so every read needed a cast).
 */
export interface RequestState {
  /** The caller's tenant, set by `requireApiKey`. */
  tenant?: string;
  /** The API's operation (operationId, `controls` or `unknown`), for the metrics. */
  operation?: string;
}

// Keyed by the response, which every handler has; dropped with it.
const states = new WeakMap<Response, RequestState>();

/**
 * The state of this request, made empty on first use; write to it in middleware, read it after.
 * @example requestState(res).tenant = tenant;
 */
export function requestState(res: Response): RequestState {
  let state = states.get(res);
  if (!state) {
    state = {};
    states.set(res, state);
  }
  return state;
}
