import { join } from 'node:path';
import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { Dispatcher } from 'undici';
import type {
  CredentialPlace,
  DocumentedTarget,
  Exchange,
  KeyChoice,
  KeyVariant,
  RequestBody,
  SentRequest,
} from '../definitions/exchange.js';
import { curlTransportArgs, DIRECT, type TransportSettings } from '../definitions/transport-settings.js';
import { curlCommand, KEY_WORD } from './curl.js';
import { resolveTarget } from './documented-target.js';
import {
  backoffMs,
  createPacer,
  createRunGate,
  type Pacer,
  type ResendRecord,
  type RunGate,
  RunStopped,
  retryAfterMs,
  TargetUnavailable,
  TRANSIENT_STATUSES,
} from './transient.js';
import { decodeBody, fetchBounded, type HttpAnswer, idempotent, type RawAnswer, type TooLarge } from './transport.js';

export type { RawAnswer } from './transport.js';

/** Query parameters; pairs allow a repeated name. */
export type QueryInput = Record<string, string | number> | Array<[string, string]>;

/** One request for {@link Http.send}: an operation of the contract, or a raw path for hostile requests. */
export interface SendOptions {
  /** The operationId whose method and path template are used. */
  operation?: string;
  /** Path parameters, inserted percent-encoded. */
  params?: Record<string, string | number>;
  /** A path under the base URL used as is (overrides `operation`'s path). */
  path?: string;
  /** Overrides the operation's method (wrong-method checks). */
  method?: string;
  query?: QueryInput;
  /** An exact query string (without `?`), for values URLSearchParams would re-encode. */
  rawQuery?: string;
  key?: KeyChoice;
  headers?: Record<string, string>;
  body?: RequestBody;
  /** The X-Request-Id to send instead of the suite's own; null sends none. */
  requestId?: string | null;
}

/**
 * What the HTTP layer reports every answer to, and who decides on it. The judging is passed in (the
 * judge of judging/judge.ts is one), so the transport never depends on the checks.
 */
export interface AnswerJudge {
  /** The target gave no HTTP answer at all (refused, reset, timed out): the verdict to throw. */
  noAnswer(exchange: Exchange, reason: string, durationMs: number, timeoutMs: number): Error;
  /**
   * Judges an HTTP answer before anyone sees it (its body cut at the cap when `tooLarge`); throws the verdict
   * on one that fails.
   */
  answered(exchange: Exchange, seen: { tooLarge: TooLarge | undefined; contract: Contract; strict: boolean }): void;
  /** The connection closed before any byte of the answer (`reason`), and the idempotent request went again once. */
  reconnected(exchange: Pick<Exchange, 'target' | 'requestId'>, reason: string): void;
  /** A transient answer was waited out and the request resent. */
  resent(resend: ResendRecord): void;
  /**
   * Judges a transient answer before it is waited out (throws the verdict on one that fails); a judge
   * without it waits every transient answer out unjudged.
   */
  transient?(prepared: PreparedRequest, answer: HttpAnswer, seen: { contract: Contract; strict: boolean }): void;
  /** Counts one observed status (a transient one too) in the coverage matrix. */
  coverage(row: string, status: number): void;
}

/** Settings of {@link createHttp}. */
export interface HttpOptions<J extends AnswerJudge = AnswerJudge> {
  baseUrl: string;
  keys: { primary: string; secondary?: string };
  contract: Contract;
  strict: boolean;
  requestTimeoutMs: number;
  /** Prefix of the X-Request-Ids the suite sends, so a target's logs can be searched for the run. */
  requestIdPrefix: string;
  /** Where reproducers write request bodies. */
  reproDir: string;
  /** How reproducers name `reproDir` (relative to the report's folder when there is one; default: `reproDir`). */
  reproShownAs?: string;
  /** How the target is reached: certificates, proxy, gateway headers (default: straight, Node's certificates). */
  transport?: TransportSettings;
  /** The dispatcher fetch goes through, built from `transport` (createDispatcher); default: fetch's own. */
  dispatcher?: Dispatcher;
  /**
   * Sends a request with a body again on a socket that reads while it writes, for a target that answered
   * (a 400, a 413) and closed before the body was all sent: fetch loses that answer to the write error.
   */
  earlyAnswer?: (prepared: PreparedRequest) => Promise<RawAnswer>;
  /** What judges every answer (and where verdicts go). */
  judge: J;
  /** The most bytes of one (decoded) body the suite reads (default {@link DEFAULT_MAX_BODY_BYTES}). */
  maxBodyBytes?: number;
  /** How long one request may keep getting transient answers (429, 503, a gateway's 502/504) before the target is unavailable. */
  maxWaitMs?: number;
  /** The run's deadline and stop mark, shared by its scenario files (none: no deadline). */
  gate?: RunGate;
  /** Spaces the run's requests (`--rate-limit`); none: unpaced. */
  pacer?: Pacer;
}

/** The body cap without `--max-body-bytes` when nothing is known of the per-file limit (the CLI derives a run's own: `bodyCapFor`). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** How long one request waits out transient answers without `--max-wait-s`. */
export const DEFAULT_MAX_WAIT_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A request made ready to send: what it is, where it goes, and the exact headers and body it carries (the key included). */
export interface PreparedRequest {
  seq: number;
  /** The request as recorded (the key never in it). */
  request: SentRequest;
  /** The URL as sent (a misplaced key included). */
  url: string;
  target: DocumentedTarget;
  requestId?: string;
  /** The headers as sent on the wire, the API key included: never printed or stored. */
  wireHeaders: Record<string, string>;
  /** A key misplaced into a form field, as sent. */
  extraFields?: Array<[string, string]>;
  reproduce(): string;
}

/** The recording HTTP layer: every response is checked against the contract before the scenario sees it. */
export interface Http<J extends AnswerJudge = AnswerJudge> {
  send(options: SendOptions): Promise<Exchange>;
  /** Builds a request without sending it (to send it another way, or to log it first). */
  prepare(options: SendOptions): PreparedRequest;
  /** Sends a prepared request with fetch. */
  dispatch(prepared: PreparedRequest): Promise<Exchange>;
  /** Records the answer to a prepared request sent some other way, through the same checks as `send`. */
  receive(prepared: PreparedRequest, answer: RawAnswer): Exchange;
  /** The judge every exchange is checked by. */
  readonly judge: J;
  /** How the target is reached, for requests sent some other way (raw sockets). */
  readonly transport: TransportSettings;
  /** The run's deadline and stop mark. */
  readonly gate: RunGate;
  /** The most bytes of one decoded body read. */
  readonly maxBodyBytes: number;
  /** Spaces the run's requests. */
  readonly pacer: Pacer;
  /** Whether an answer is a transient one (429, 503, a gateway's 502/504): never judged, waited out and resent. */
  transient(answer: RawAnswer): answer is HttpAnswer;
  /**
   * Records a transient answer to `prepared` as a resend and waits what it asks (its `resends`-th; `waitedMs`
   * already spent on this request); throws {@link TargetUnavailable} once the wait budget is spent. Resolves to the wait.
   */
  waitOut(prepared: PreparedRequest, answer: HttpAnswer, resends: number, waitedMs: number): Promise<number>;
}

function keyValue(key: KeyChoice, keys: HttpOptions['keys']): string | undefined {
  if (key === 'none') return undefined;
  if (key === 'primary') return keys.primary;
  if (key === 'secondary') {
    if (!keys.secondary) throw new Error('conformance suite bug: the second key was used without --second-api-key');
    return keys.secondary;
  }
  if ('variant' in key) return keyVariant(keys.primary, key.variant);
  if ('misplaced' in key) return undefined;
  return key.literal;
}

/**
 * Puts the run's key where `place` says, into the URL, headers and form fields actually sent; the recorded
 * URL names the key by its environment variable instead, so no key is ever kept or printed.
 */
function misplaceKey(
  place: CredentialPlace,
  key: string,
  sent: { url: string; recordedUrl: string; headers: Record<string, string>; fields: Array<[string, string]>; hasForm: boolean },
): void {
  if (place.kind === 'query') {
    const join = sent.url.includes('?') ? '&' : '?';
    sent.url += `${join}${encodeURIComponent(place.name)}=${encodeURIComponent(key)}`;
    sent.recordedUrl += `${join}${encodeURIComponent(place.name)}=${KEY_WORD}`;
  } else if (place.kind === 'header') sent.headers[place.name] = place.value(key);
  else if (place.kind === 'cookie') sent.headers.cookie = `${place.name}=${encodeURIComponent(key)}`;
  else if (sent.hasForm) sent.fields.push([place.name, key]);
  else throw new Error('conformance suite bug: a key in a form field needs an upload of file parts');
}

/** The text with every letter in its other case (`aB` → `Ab`). */
export function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

/** The run's key made into a near-miss: letter case swapped, or wrapped in U+00A0 (sent as the byte 0xA0). */
export function keyVariant(key: string, variant: KeyVariant): string {
  return variant === 'nbsp-padded' ? `\u00a0${key}\u00a0` : swapCase(key);
}

function encodeBody(body: RequestBody | undefined, fields: Array<[string, string]> = []): BodyInit | undefined {
  if (!body) return undefined;
  if (body.kind === 'raw') return new Blob([body.data as Uint8Array<ArrayBuffer>]);
  const form = new FormData();
  for (const part of body.parts)
    form.append(part.field, new Blob([part.data as Uint8Array<ArrayBuffer>], { type: part.contentType }), part.filename);
  for (const [name, value] of fields) form.append(name, value);
  return form;
}

/**
 * Creates the recording HTTP layer over fetch.
 * @example const http = createHttp({ baseUrl, keys: { primary: key }, contract, strict: false, requestTimeoutMs: 30000, requestIdPrefix: 'conformance-run1-list', reproDir, judge });
 */
export function createHttp<J extends AnswerJudge>(options: HttpOptions<J>): Http<J> {
  let seq = 0;
  const base = options.baseUrl.replace(/\/+$/, '');
  const { judge } = options;
  const transport = options.transport ?? DIRECT;
  const prepare = (o: SendOptions): PreparedRequest => {
    const number = ++seq;
    const method = (o.method ?? (o.operation ? options.contract.operation(o.operation)?.method : undefined) ?? 'get').toUpperCase();
    const template = o.operation ? options.contract.operation(o.operation)?.path : undefined;
    if (!o.path && !template) throw new Error(`conformance suite bug: unknown operation ${o.operation}`);
    const pathname = o.path ?? template!.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(o.params?.[name])));
    const search =
      o.rawQuery ??
      new URLSearchParams(Array.isArray(o.query) ? o.query : Object.entries(o.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const url = `${base}${pathname}${search ? `?${search}` : ''}`;
    const requestId = o.requestId === null ? undefined : (o.requestId ?? `${options.requestIdPrefix}-${number}`);
    const headers: Record<string, string> = { ...(requestId !== undefined ? { 'x-request-id': requestId } : {}), ...o.headers };
    if (o.body?.kind === 'raw' && o.body.contentType !== undefined) headers['content-type'] = o.body.contentType;
    const key = o.key ?? 'primary';
    const apiKey = keyValue(key, options.keys);
    const sent = {
      url,
      recordedUrl: url,
      headers: { ...headers, ...(apiKey !== undefined ? { 'x-api-key': apiKey } : {}) },
      fields: [] as Array<[string, string]>,
      hasForm: o.body?.kind === 'files',
    };
    if (typeof key === 'object' && 'misplaced' in key) misplaceKey(key.misplaced, options.keys.primary, sent);
    const request: SentRequest = { method, url: sent.recordedUrl, key, headers, ...(o.body ? { body: o.body } : {}) };
    let reproduced: string | undefined;
    return {
      seq: number,
      request,
      url: sent.url,
      target: resolveTarget(options.contract, method, pathname),
      wireHeaders: sent.headers,
      ...(sent.fields.length ? { extraFields: sent.fields } : {}),
      reproduce: () =>
        (reproduced ??= curlCommand(request, join(options.reproDir, 'bodies'), number, {
          shownAs: join(options.reproShownAs ?? options.reproDir, 'bodies'),
          transportArgs: curlTransportArgs(transport),
        })),
      ...(requestId !== undefined ? { requestId } : {}),
    };
  };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const gate = options.gate ?? createRunGate({});
  const pacer = options.pacer ?? createPacer(undefined, 1);
  const receive = (prepared: PreparedRequest, answer: RawAnswer): Exchange => {
    const { seq: number, request, target, requestId, reproduce } = prepared;
    const common = {
      seq: number,
      request,
      target,
      reproduce,
      durationMs: answer.durationMs,
      ...(requestId !== undefined ? { requestId } : {}),
    };
    if ('error' in answer) {
      const exchange: Exchange = { ...common, status: 0, headers: new Headers(), mediaType: '', text: '', json: undefined };
      throw judge.noAnswer(exchange, answer.error, answer.durationMs, options.requestTimeoutMs);
    }
    const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const isJson = mediaType === 'application/json' || mediaType.endsWith('+json');
    const { text, invalidUtf8 } = decodeBody(answer.bytes, isJson);
    let json: unknown;
    let jsonError: string | undefined = invalidUtf8;
    if (isJson && invalidUtf8 === undefined) {
      try {
        json = JSON.parse(text);
      } catch (error) {
        jsonError = (error as Error).message;
      }
    }
    const exchange: Exchange = {
      ...common,
      status: answer.status,
      headers: answer.headers,
      mediaType,
      text,
      json,
      ...(jsonError !== undefined ? { jsonError } : {}),
    };
    judge.coverage(target.coverageKey, answer.status);
    judge.answered(exchange, { tooLarge: answer.tooLarge, contract: options.contract, strict: options.strict });
    return exchange;
  };
  /** Waits out one transient answer, or ends the run's use of the target when the wait budget is spent. */
  const waitOut = async (prepared: PreparedRequest, answer: HttpAnswer, resends: number, waitedMs: number) => {
    judge.transient?.(prepared, answer, { contract: options.contract, strict: options.strict });
    const asked = retryAfterMs(answer.headers);
    const waitMs = asked ?? backoffMs(resends);
    const what = `${prepared.request.method} ${prepared.request.url}`;
    if (waitMs > gate.remainingMs()) throw new RunStopped(`the run reached its deadline (--max-run-s) waiting out a ${answer.status}`);
    if (waitedMs + waitMs > maxWaitMs) {
      const message = `target unavailable: ${what} got only transient answers (last ${answer.status}${
        asked !== undefined ? `, Retry-After ${answer.headers.get('retry-after')}` : ''
      }) for ${Math.round(waitedMs / 1000)} s, and --max-wait-s is ${Math.round(maxWaitMs / 1000)}`;
      gate.markUnavailable(message);
      throw new TargetUnavailable(message);
    }
    judge.resent({
      request: what,
      ...(prepared.requestId !== undefined ? { requestId: prepared.requestId } : {}),
      status: answer.status,
      retryAfter: answer.headers.get('retry-after'),
      waitMs,
      at: Date.now(),
    });
    judge.coverage(prepared.target.coverageKey, answer.status);
    await sleep(waitMs);
    return waitMs;
  };
  const dispatch = async (prepared: PreparedRequest): Promise<Exchange> => {
    let resends = 0;
    let waitedMs = 0;
    let reconnected = false;
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
        // RFC 9110 §9.2.2: a client may resend an idempotent request whose connection closed before any answer.
        if (answer.beforeAnyByte && !reconnected && idempotent(prepared.request.method, prepared.wireHeaders)) {
          reconnected = true;
          judge.reconnected(prepared, answer.error);
          continue;
        }
        // Closed while the body was still going out: the target stopped reading it, so it stored nothing
        // (a request that fails changes nothing), and what it answered first is read this time.
        if (answer.beforeAnyByte && answer.error === 'EPIPE' && prepared.request.body && options.earlyAnswer && !reconnected) {
          reconnected = true;
          const early = await options.earlyAnswer(prepared);
          if (!('error' in early)) {
            pacer.answered(early.status);
            if (!TRANSIENT_STATUSES.has(early.status)) return receive(prepared, early);
            waitedMs += await waitOut(prepared, early, ++resends, waitedMs);
            continue;
          }
        }
        return receive(prepared, answer);
      }
      pacer.answered(answer.status);
      if (!TRANSIENT_STATUSES.has(answer.status)) return receive(prepared, answer);
      // "wait `Retry-After` seconds, then retry. Nothing was changed." (the contract's 429 and 503): the same request again.
      waitedMs += await waitOut(prepared, answer, ++resends, waitedMs);
    }
  };
  return {
    judge,
    transport,
    prepare,
    dispatch,
    receive,
    send: (o) => dispatch(prepare(o)),
    gate,
    maxBodyBytes,
    pacer,
    waitOut,
    transient: (answer): answer is HttpAnswer => !('error' in answer) && TRANSIENT_STATUSES.has(answer.status),
  };
}
