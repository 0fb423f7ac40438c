import type { IncomingMessage, ServerResponse } from 'node:http';

// A request's AbortController is made only when something asks for its signal (an upload does; a list
// or a read never does), so most requests carry none. Until then, why the request was ended is kept here.
const controllers = new WeakMap<IncomingMessage, AbortController>();
const endedBefore = new WeakMap<IncomingMessage, Error>();

const wentAway = () => new Error('The connection closed before the answer was sent.');

/** Aborts a request's signal: nothing it has not yet changed may change any more (the server's shutdown grace period ended). */
export function endRequest(req: IncomingMessage, reason: string): void {
  const controller = controllers.get(req);
  if (controller) controller.abort(new Error(reason));
  else if (!endedBefore.has(req)) endedBefore.set(req, new Error(reason));
}

/**
 * The signal of a request: aborted once nothing may be changed on its behalf any more, because its
 * client went away before its answer was sent, or the server's shutdown grace period ended (see
 * {@link endRequest}). Work whose effect the client must learn of (storing an upload) checks it right
 * before it commits. `res` defaults to an Express request's own.
 * @example if (requestSignal(req).aborted) return { kind: 'abandoned' };
 */
export function requestSignal(req: IncomingMessage & { res?: ServerResponse }, res = req.res): AbortSignal {
  const existing = controllers.get(req);
  if (existing) return existing.signal;
  if (!res) throw new Error('requestSignal needs the request’s response (an Express request has it)');
  const controller = new AbortController();
  controllers.set(req, controller);
  const ended = endedBefore.get(req);
  if (ended) controller.abort(ended);
  else if (res.closed) {
    if (!res.writableFinished) controller.abort(wentAway());
  } else {
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(wentAway());
    });
  }
  return controller.signal;
}
