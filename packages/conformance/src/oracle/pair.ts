import { type Answer, refusesSpelling, type Sent } from '../checks/differential.js';
import type { Exchange, KeyChoice } from '../definitions/exchange.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import type { Judge } from '../judging/judge.js';
import type { LoggedCall, Step } from '../model/sequence-context.js';
import { type Http, keyVariant } from '../transport/http.js';
import type { ReferenceTwin } from './reference-twin.js';

/** What differs between the request the target is sent and the twin's: the ids in the path, and spellings read either way. */
export interface SideRequest {
  path: string;
  /** The exact query string (no `?`), if any. */
  query?: string;
}

/** One request, sent to the target and to the twin alike. */
export interface PairRequest {
  method: string;
  target: SideRequest;
  twin: SideRequest;
  /**
   * The twin's request in the target's own spelling, for a request that changes state: sent instead of `twin`
   * when the target refuses the spelling, so the twin does not do what the target refused.
   */
  twinAsSpelled?: SideRequest;
  key: KeyChoice;
  headers: Record<string, string>;
  /** The X-Request-Id both are sent (null: none). */
  requestId: string | null;
  body?: { contentType: string; data: Uint8Array };
  /** `in name` of each parameter sent in a spelling the contract lets a deployment read either way. */
  either: string[];
  /** See {@link Sent.faults}. */
  faults?: Sent['faults'];
  /** For the reproducer: the document the path names, and the aliases an accepted upload creates. */
  names?: LoggedCall['names'];
  creates?: string[];
}

/** Both answers, and the target's exchange (for the failure's reproducer). */
export interface PairAnswers {
  target: Answer;
  twin: Answer;
  exchange: Exchange;
}

function answerOf(status: number, headers: Headers, text: string): Answer {
  const mediaType = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  let body: unknown = text;
  if (/json/.test(mediaType))
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  return { status, mediaType, body, header: (name) => headers.get(name) };
}

/** The key a choice sends, for the twin (which knows the target's keys). */
function keyHeader(key: KeyChoice, keys: { primary: string; secondary?: string }): string | undefined {
  if (key === 'primary') return keys.primary;
  if (key === 'secondary') return keys.secondary;
  if (typeof key === 'object' && 'literal' in key) return key.literal;
  // A near miss is an unknown key to the twin as well; a misplaced key is no key in the header.
  if (typeof key === 'object' && 'variant' in key) return keyVariant(keys.primary, key.variant);
  return undefined;
}

/**
 * Sends `request` to the target (through the suite's HTTP layer, which judges every answer as usual and logs
 * the call in `step`) and to the twin, and returns both answers.
 */
export async function sendPair(
  request: PairRequest,
  {
    http,
    twin,
    keys,
    step,
    tenant,
  }: { http: Http<Judge>; twin: ReferenceTwin; keys: { primary: string; secondary?: string }; step: Step; tenant: LoggedCall['tenant'] },
): Promise<PairAnswers> {
  const prepared = http.prepare({
    method: request.method,
    path: request.target.path,
    ...(request.target.query !== undefined ? { rawQuery: request.target.query } : {}),
    key: request.key,
    headers: request.headers,
    requestId: request.requestId,
    ...(request.body ? { body: { kind: 'raw', contentType: request.body.contentType, data: request.body.data } } : {}),
  });
  step.calls.push({
    tenant,
    request: prepared.request,
    ...(request.names ? { names: request.names } : {}),
    ...(request.creates ? { creates: request.creates } : {}),
  });
  let exchange: Exchange;
  try {
    exchange = await http.dispatch(prepared);
  } catch (error) {
    if (error instanceof ConformanceFailure) {
      step.failed = true;
      step.target = error.record.received;
    }
    throw error;
  }
  const target = answerOf(exchange.status, exchange.headers, exchange.text);
  const asSpelled = request.twinAsSpelled && refusesSpelling(target, request.either);
  return { target, twin: await sendTwin(asSpelled ? { ...request, twin: request.twinAsSpelled! } : request, twin, keys), exchange };
}

/** Sends `request` to the twin alone. */
export async function sendTwin(request: PairRequest, twin: ReferenceTwin, keys: { primary: string; secondary?: string }): Promise<Answer> {
  const headers = new Headers(request.headers);
  const key = keyHeader(request.key, keys);
  if (key !== undefined) headers.set('x-api-key', key);
  if (request.requestId !== null) headers.set('x-request-id', request.requestId);
  if (request.body) headers.set('content-type', request.body.contentType);
  const url = `http://reference.twin${request.twin.path}${request.twin.query ? `?${request.twin.query}` : ''}`;
  const response = await twin.send(
    new Request(url, { method: request.method, headers, ...(request.body ? { body: request.body.data as Uint8Array<ArrayBuffer> } : {}) }),
  );
  return answerOf(response.status, response.headers, await response.text());
}
