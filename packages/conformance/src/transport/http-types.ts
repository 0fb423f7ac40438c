import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { Dispatcher } from 'undici';
import type { DocumentedTarget, Exchange, KeyChoice, RequestBody, SentRequest } from '../definitions/exchange.js';
import type { TransportSettings } from '../definitions/transport-settings.js';
import type { Pacer, ResendRecord, RunGate } from './transient.js';
import type { HttpAnswer, RawAnswer, TooLarge } from './transport.js';

// The shapes of the recording HTTP layer (http.ts puts it together from prepare-request.ts,
// receive-answer.ts, wait-out.ts and send-loop.ts).

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
  /**
   * A forward proxy the run goes through answered itself (`said`: refused a tunnel, wanted credentials, its
   * own error page): the verdict to throw, a warning naming the proxy and never the service's failure.
   */
  proxyAnswered(exchange: Exchange, proxy: string, said: string): Error;
  /**
   * A forward proxy lost the answer to a request (reset, or closed empty) that, sent again straight to the
   * target (or through the proxy again), got one: `said` names the hop that lost it. A warning, never a pass
   * of its own: the answer that arrived is judged as any other.
   */
  lostOnTheWay(prepared: Pick<PreparedRequest, 'target' | 'requestId'>, said: string): void;
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
  /** Records which input partitions and document states an answered request reached. */
  reached(exchange: Exchange): void;
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
   * `transport` overrides the run's (the same request straight to the target, without its proxy).
   */
  earlyAnswer?: (prepared: PreparedRequest, transport?: TransportSettings) => Promise<RawAnswer>;
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
