import type { Exchange } from '../definitions/exchange.js';
import { proxyFor, type TransportSettings } from '../definitions/transport-settings.js';
import type { AnswerJudge, HttpOptions, PreparedRequest } from './http-types.js';
import { proxyRefusal, proxyShown } from './proxy.js';
import type { RunGate } from './transient.js';
import { decodeBody, type RawAnswer } from './transport.js';

/** The body as text and, for a JSON media type, parsed (or why it could not be). */
function readBody(bytes: Uint8Array, mediaType: string): Pick<Exchange, 'text' | 'json' | 'jsonError'> {
  const isJson = mediaType === 'application/json' || mediaType.endsWith('+json');
  const { text, invalidUtf8 } = decodeBody(bytes, isJson);
  let json: unknown;
  let jsonError: string | undefined = invalidUtf8;
  if (isJson && invalidUtf8 === undefined) {
    try {
      json = JSON.parse(text);
    } catch (error) {
      jsonError = (error as Error).message;
    }
  }
  return { text, json, ...(jsonError !== undefined ? { jsonError } : {}) };
}

/**
 * Makes the exchange of an answer (or of its absence) and hands it to the judge before anyone sees it. An
 * answer a forward proxy of the run made itself is the proxy's (a warning naming it), never the service's;
 * every complete answer, and every request that got none in time, tells the run's gate whether the target
 * is alive (a target that never answers stops the run early, see {@link RunGate.unanswered}).
 * @example const receive = createReceive({ ...options, gate, transport }); const exchange = receive(prepared, answer);
 */
export function createReceive<J extends AnswerJudge>(
  options: Pick<HttpOptions<J>, 'contract' | 'strict' | 'requestTimeoutMs' | 'judge'> & { gate: RunGate; transport: TransportSettings },
): (prepared: PreparedRequest, answer: RawAnswer) => Exchange {
  const { judge, gate } = options;
  return (prepared, answer) => {
    const { seq, request, target, requestId, reproduce } = prepared;
    const common = {
      seq,
      request,
      target,
      reproduce,
      durationMs: answer.durationMs,
      receivedAt: Date.now(),
      ...(requestId !== undefined ? { requestId } : {}),
    };
    const proxy = proxyFor(new URL(prepared.url), options.transport);
    if ('error' in answer) {
      const exchange: Exchange = { ...common, status: 0, headers: new Headers(), mediaType: '', text: '', json: undefined };
      if (proxy && answer.proxyRefused) throw judge.proxyAnswered(exchange, proxyShown(proxy), answer.proxyRefused);
      if (answer.timedOut) gate.unanswered(options.requestTimeoutMs, answer.endedAt);
      throw judge.noAnswer(exchange, answer.error, answer.durationMs, options.requestTimeoutMs);
    }
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const exchange: Exchange = {
      ...common,
      status: answer.status,
      headers: answer.headers,
      mediaType,
      ...readBody(answer.bytes, mediaType),
    };
    const refused = proxy ? proxyRefusal(answer, requestId) : undefined;
    if (proxy && refused) throw judge.proxyAnswered(exchange, proxyShown(proxy), `answered ${refused}`);
    gate.answered(`${request.method} ${new URL(prepared.url).pathname}`, answer.endedAt);
    judge.coverage(target.coverageKey, answer.status);
    judge.reached(exchange);
    judge.answered(exchange, { tooLarge: answer.tooLarge, contract: options.contract, strict: options.strict });
    return exchange;
  };
}
