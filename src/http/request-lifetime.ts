import type { IncomingMessage, ServerResponse } from 'node:http';

// One AbortController per request, made as the request arrives (the drain's listener, drain.ts),
// or on first use for an app served some other way.
const lifetimes = new WeakMap<IncomingMessage, AbortController>();

/**
 * Starts following a request: its signal is aborted when its connection closes before its answer
 * was sent (the client went away), or by the server (see {@link endRequest}).
 * @example const lifetime = followRequest(req, res);
 */
export function followRequest(req: IncomingMessage, res: ServerResponse): AbortController {
  const existing = lifetimes.get(req);
  if (existing) return existing;
  const controller = new AbortController();
  lifetimes.set(req, controller);
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('The connection closed before the answer was sent.'));
  });
  return controller;
}

/** Aborts a request's signal: nothing it has not yet changed may change any more (the server's shutdown grace period ended). */
export function endRequest(req: IncomingMessage, reason: string): void {
  lifetimes.get(req)?.abort(new Error(reason));
}

/**
 * The signal of a request: aborted once nothing may be changed on its behalf any more, because its
 * client went away before its answer was sent, or the server's shutdown grace period ended. Work
 * whose effect the client must learn of (storing an upload) checks it right before it commits.
 * @example if (requestSignal(req).aborted) return { kind: 'abandoned' };
 */
export function requestSignal(req: IncomingMessage & { res?: ServerResponse }): AbortSignal {
  const existing = lifetimes.get(req);
  if (existing) return existing.signal;
  if (!req.res) throw new Error('requestSignal needs a request that has its response (an Express request)');
  return followRequest(req, req.res).signal;
}
