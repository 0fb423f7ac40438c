import type { Exchange, RequestBody } from '../definitions/exchange.js';
import { proxyFor, type TransportSettings } from '../definitions/transport-settings.js';
import { amendFailure, ConformanceFailure } from '../definitions/verdict.js';
import type { AnswerJudge, HttpOptions, PreparedRequest } from './http-types.js';
import { checkHops, lostOnTheWay } from './lost-answer.js';
import { type Pacer, type RunGate, RunStopped, TRANSIENT_STATUSES } from './transient.js';
import { fetchBounded, type HttpAnswer, idempotent, type RawAnswer } from './transport.js';

function encodeBody(body: RequestBody | undefined, fields: Array<[string, string]> = []): BodyInit | undefined {
  if (!body) return undefined;
  if (body.kind === 'raw') return new Blob([body.data as Uint8Array<ArrayBuffer>]);
  const form = new FormData();
  for (const part of body.parts)
    form.append(part.field, new Blob([part.data as Uint8Array<ArrayBuffer>], { type: part.contentType }), part.filename);
  for (const [name, value] of fields) form.append(name, value);
  return form;
}

/** What the send loop is built from: the layer's options, its gate and pacer, and its other parts. */
export interface SendLoopParts {
  options: Pick<HttpOptions, 'requestTimeoutMs' | 'dispatcher' | 'earlyAnswer' | 'judge'>;
  gate: RunGate;
  pacer: Pacer;
  maxBodyBytes: number;
  /** How the target is reached (whether a request goes through a forward proxy). */
  transport: TransportSettings;
  receive(prepared: PreparedRequest, answer: RawAnswer): Exchange;
  waitOut(prepared: PreparedRequest, answer: HttpAnswer, resends: number, waitedMs: number): Promise<number>;
}

/** `receive`'s verdict, with what was learnt of the hops (`note`) added to the failure it throws. */
function noted(receive: () => Exchange, note: string | undefined): Exchange {
  try {
    return receive();
  } catch (error) {
    if (!(error instanceof ConformanceFailure) || note === undefined) throw error;
    throw amendFailure(error, { note: [error.record.note, note].filter(Boolean).join('\n') });
  }
}

/**
 * Sends a prepared request with fetch until it has an answer to judge: paced, within the request timeout
 * (or what the run's deadline leaves), transient answers waited out and the request resent, an idempotent
 * request resent once on a connection that closed before any byte of the answer (RFC 9110 §9.2.2), and a
 * body the target stopped reading sent again on a socket that reads while it writes. Through a forward
 * proxy, an upload whose answer that socket did not get either (a reset, an empty reply) is sent straight
 * to the target, or through the proxy again when the target cannot be reached without it: an answer that
 * arrives so is judged, with a warning naming the hop that lost it; none is a failure that says so.
 * @example const dispatch = createSendLoop({ options, gate, pacer, maxBodyBytes, receive, waitOut }); const exchange = await dispatch(prepared);
 */
export function createSendLoop<J extends AnswerJudge>(parts: SendLoopParts & { options: { judge: J } }) {
  const { options, gate, pacer, maxBodyBytes, receive, waitOut } = parts;
  const proxyOf = (prepared: PreparedRequest) => proxyFor(new URL(prepared.url), parts.transport);
  return async (prepared: PreparedRequest): Promise<Exchange> => {
    let resends = 0;
    let waitedMs = 0;
    let reconnected = false;
    // What sending a lost answer's request again showed of the hops, for a failure's note.
    let hops: string | undefined;
    for (;;) {
      gate.check();
      await pacer.take();
      const timeoutMs = Math.min(options.requestTimeoutMs, gate.remainingMs());
      const answer = await fetchBounded(
        {
          url: prepared.url,
          method: prepared.request.method,
          headers: prepared.wireHeaders,
          body: encodeBody(prepared.request.body, prepared.extraFields),
          ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        },
        { timeoutMs, maxBodyBytes },
      );
      if ('error' in answer) {
        // The run's deadline cut this request short: no verdict on the target.
        if (answer.timedOut && timeoutMs < options.requestTimeoutMs) throw new RunStopped('the run reached its deadline (--max-run-s)');
        // Closed while the body was still going out: the target stopped reading it, so it stored nothing
        // (a request that fails changes nothing), and what it answered first is read this time. Before a
        // plain resend, which would meet the same early close. Through a forward proxy, an answer the
        // target gave from the headers alone (a 401, a 413) comes back with the proxy closing, or resetting,
        // the connection the rest of the body was still arriving on: the same case, whatever error it makes.
        const proxy = proxyOf(prepared);
        const stoppedReading = answer.error === 'EPIPE' || proxy !== undefined;
        if (answer.beforeAnyByte && stoppedReading && prepared.request.body && options.earlyAnswer && !reconnected) {
          reconnected = true;
          let early = await options.earlyAnswer(prepared);
          // A proxy may lose that early answer too: the same request straight to the target (or through
          // the proxy again) tells the hop that lost it from a target that never gave one.
          if (proxy && lostOnTheWay(early)) {
            const checked = await checkHops(prepared, early, proxy, parts.transport, options.earlyAnswer);
            early = checked.answer;
            if ('error' in early) hops = checked.said;
            else options.judge.lostOnTheWay(prepared, checked.said);
          }
          if (!('error' in early)) {
            pacer.answered(early.status);
            if (!TRANSIENT_STATUSES.has(early.status)) return receive(prepared, early);
            waitedMs += await waitOut(prepared, early, ++resends, waitedMs);
            continue;
          }
        }
        // RFC 9110 §9.2.2: a client may resend an idempotent request whose connection closed before any answer.
        if (answer.beforeAnyByte && !reconnected && idempotent(prepared.request.method, prepared.wireHeaders)) {
          reconnected = true;
          // A kept-alive connection closed as the request went out is HTTP as it works (RFC 9112 §9.3.1: a
          // client must recover from such asynchronous closes), seen on any busy runner: sent again, unremarked.
          if (!answer.keptAlive) options.judge.reconnected(prepared, answer.error);
          continue;
        }
        return noted(() => receive(prepared, answer), hops);
      }
      pacer.answered(answer.status);
      if (!TRANSIENT_STATUSES.has(answer.status)) return receive(prepared, answer);
      // "wait `Retry-After` seconds, then retry. Nothing was changed." (the contract's 429 and 503): the same request again.
      waitedMs += await waitOut(prepared, answer, ++resends, waitedMs);
    }
  };
}
