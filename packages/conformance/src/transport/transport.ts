import { READ_BEFORE } from './dispatcher.js';
import { ProxyRefused } from './proxy.js';

/** What one request may cost the runner, whatever the target sends. */
export interface TransportLimits {
  /** How long the target may take to answer (a stalled runner's own pauses are not counted). */
  timeoutMs: number;
  /** The most bytes of a (decoded) body read; a longer one is cut there and reported as too large. */
  maxBodyBytes: number;
}

/** Why a body was not read whole. */
export interface TooLarge {
  /** What was seen: `more than 8388608 bytes`, `gzip inflating 1200:1`. */
  received: string;
  limit: number;
}

/**
 * An answer, or why there was none. `tooLarge`: the body was cut at the cap (`bytes` holds its start);
 * `beforeAnyByte`: the connection ended (reset, closed) before the answer's head arrived, so an idempotent
 * request may be sent again (RFC 9110 §9.2.2); `keptAlive`: that connection had read bytes before (an earlier
 * answer on a kept-alive connection, or part of this one), so the close may be the target ending an idle
 * connection as the request went out (RFC 9112 §9.3.1), which every HTTP client recovers from; `timedOut`: the target did not answer within the timeout;
 * `proxyRefused`: a forward proxy refused to tunnel to the target (what it said, see {@link ProxyRefused});
 * `sentWhole`: the whole request had gone out when the connection ended (known of a request sent on a raw socket);
 * `endedAt`: when the answer was complete or given up on (ms since the epoch), for answers read some time
 * before they are judged (a race's); absent, when it is judged.
 */
export type RawAnswer =
  | { status: number; headers: Headers; bytes: Uint8Array; durationMs: number; tooLarge?: TooLarge; endedAt?: number }
  | {
      error: string;
      durationMs: number;
      beforeAnyByte?: boolean;
      keptAlive?: boolean;
      timedOut?: boolean;
      unreachable?: boolean;
      proxyRefused?: string;
      sentWhole?: boolean;
      endedAt?: number;
    };

/** An HTTP answer (as opposed to the reason there was none). */
export type HttpAnswer = Extract<RawAnswer, { status: number }>;

/**
 * Errors that mean no connection was made: the target was never reached. `bad port` is fetch refusing a
 * port the Fetch standard blocks (9, 25, 6000, ...) before it connects.
 */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'bad port',
]);
/** Errors that mean an open connection was closed under the request. */
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** The least body cap: well above the largest list page the contract describes (see {@link bodyCapFor}). */
const BODY_CAP_FLOOR = 8 * 1024 * 1024;
const BODY_CAP_CEILING = 64 * 1024 * 1024;

/**
 * The largest answer a conforming service sensibly sends, which the suite reads before calling a body too
 * large. A list page is at most 100 summaries (`maxItems: 100`), each a few hundred bytes plus a filename
 * of at most 255 characters (6 bytes each escaped): under 200 KiB. A document carries its extracted text,
 * which comes from one file of at most the per-file limit. So: the per-file limit, at least 8 MiB (room
 * for error texts the contract does not bound) and at most 64 MiB (what two workers may hold at once
 * stays far under 1 GiB).
 * @example bodyCapFor(26_214_400) // 26214400 (the contract's default per-file limit)
 */
export function bodyCapFor(maxFileBytes: number | undefined): number {
  if (maxFileBytes === undefined || !Number.isFinite(maxFileBytes)) return BODY_CAP_FLOOR;
  return Math.min(BODY_CAP_CEILING, Math.max(BODY_CAP_FLOOR, maxFileBytes));
}

/** A decoded body is judged a bomb above this ratio to its compressed length (once past 1 MiB). */
export const MAX_INFLATE_RATIO = 1000;
const RATIO_FLOOR_BYTES = 1 << 20;

const TICK_MS = 250;

/**
 * Calls `fire` once the target has had `ms` of the runner's attention: time counts in ticks of at most
 * twice {@link TICK_MS}, so a runner that was stalled (a busy CI machine, a long synchronous step) never
 * blames the target for its own pause. Returns a function that cancels it.
 * @example const cancel = targetTimeout(30_000, () => controller.abort());
 */
export function targetTimeout(ms: number, fire: () => void): () => void {
  let counted = 0;
  let last = performance.now();
  let timer: NodeJS.Timeout;
  const tick = () => {
    const now = performance.now();
    counted += Math.min(now - last, 2 * TICK_MS);
    last = now;
    if (counted >= ms) fire();
    else timer = setTimeout(tick, Math.min(TICK_MS, ms - counted));
  };
  timer = setTimeout(tick, Math.min(TICK_MS, ms));
  return () => clearTimeout(timer);
}

class Timeout extends Error {
  override name = 'TargetTimeout';
}

/** What the connection had read when it failed: undici's socket errors carry it, the suite's connections note it on the rest. */
function readBefore(cause: unknown): number {
  if (!cause || typeof cause !== 'object') return 0;
  const noted = (cause as { [READ_BEFORE]?: number })[READ_BEFORE];
  return (cause as { socket?: { bytesRead?: number } }).socket?.bytesRead ?? noted ?? 0;
}

function errorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/**
 * Reads a body as a stream, up to `limit` bytes: beyond it the rest is never read (the connection is
 * dropped), so a 1 GiB, an endless or an inflating body costs at most `limit` bytes of memory.
 */
async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  compressedLength: number | undefined,
): Promise<{ bytes: Uint8Array; tooLarge?: TooLarge }> {
  if (!body) return { bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let tooLarge: TooLarge | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (compressedLength !== undefined && total > RATIO_FLOOR_BYTES && total > MAX_INFLATE_RATIO * compressedLength) {
      tooLarge = { received: `a body inflating more than ${MAX_INFLATE_RATIO}:1 (${compressedLength} bytes sent)`, limit };
    } else if (total > limit) tooLarge = { received: `more than ${limit} bytes of body`, limit };
    if (tooLarge) {
      chunks.push(value.subarray(0, Math.max(0, value.length - (total - limit))));
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(Math.min(total, limit));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk.subarray(0, bytes.length - at), at);
    at += Math.min(chunk.length, bytes.length - at);
  }
  return { bytes, ...(tooLarge ? { tooLarge } : {}) };
}

/** What {@link fetchBounded} sends. */
export interface WireRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: BodyInit | undefined;
  /** The undici dispatcher that reaches the target (certificates, proxy, gateway headers); default: fetch's own. */
  dispatcher?: unknown;
}

/**
 * The suite's one call to fetch: sends `request` and reads the answer within `limits`, never throwing
 * for what the target does (refused, reset, silent, endless, compressed beyond reason).
 * @example const answer = await fetchBounded({ url, method: 'GET', headers }, { timeoutMs: 30_000, maxBodyBytes: 8 << 20 });
 */
export async function fetchBounded(request: WireRequest, limits: TransportLimits): Promise<RawAnswer> {
  const started = performance.now();
  const controller = new AbortController();
  const cancel = targetTimeout(limits.timeoutMs, () => controller.abort(new Timeout(`no complete answer within ${limits.timeoutMs} ms`)));
  let headed = false;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: controller.signal,
      ...(request.dispatcher ? { dispatcher: request.dispatcher } : {}),
    } as RequestInit);
    headed = true;
    const encoded = (response.headers.get('content-encoding') ?? '').trim() !== '';
    const length = Number(response.headers.get('content-length') ?? Number.NaN);
    const { bytes, tooLarge } = await readCapped(response.body, limits.maxBodyBytes, encoded && length >= 0 ? length : undefined);
    // Never read the rest in the background to keep the connection: drop it.
    if (tooLarge) controller.abort();
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      durationMs: performance.now() - started,
      ...(tooLarge ? { tooLarge } : {}),
    };
  } catch (error) {
    const durationMs = performance.now() - started;
    if (controller.signal.aborted && controller.signal.reason instanceof Timeout)
      return { error: (controller.signal.reason as Error).message, durationMs, timedOut: true };
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof ProxyRefused) return { error: cause.message, durationMs, proxyRefused: cause.refusal };
    const code = errorCode(error);
    const closedBeforeHead = !headed && CLOSED.has(code);
    return {
      error: code,
      durationMs,
      ...(UNREACHABLE.has(code) ? { unreachable: true } : {}),
      ...(closedBeforeHead ? { beforeAnyByte: true } : {}),
      ...(closedBeforeHead && readBefore(cause) > 0 ? { keptAlive: true } : {}),
    };
  } finally {
    cancel();
  }
}

/** Whether a request may be sent again after a connection closed under it (RFC 9110 §9.2.2; a keyed upload replays). */
export function idempotent(method: string, headers: Record<string, string>): boolean {
  if (['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE'].includes(method.toUpperCase())) return true;
  return Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
}

/**
 * A body as text: JSON must be valid UTF-8 (RFC 8259 §8.1), so for JSON types invalid bytes are an error
 * the checks that read the body report; other types are decoded leniently, for display.
 */
export function decodeBody(bytes: Uint8Array, json: boolean): { text: string; invalidUtf8?: string } {
  if (!json) return { text: new TextDecoder().decode(bytes) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { text: new TextDecoder().decode(bytes), invalidUtf8: 'the body is not valid UTF-8 (RFC 8259 §8.1: JSON is UTF-8)' };
  }
}
