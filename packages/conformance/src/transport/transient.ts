import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AnsweredRequest, type Liveness, RUN_DEFAULTS } from '../definitions/config.js';
import type { ResendRecord } from '../definitions/records.js';
import { sleep } from './polling.js';

export type { AnsweredRequest, Liveness, ResendRecord };

/**
 * Statuses that say "not now" rather than judge the request: the contract's own 429 and 503 ("wait
 * `Retry-After` seconds, then retry. Nothing was changed.", components.responses TooManyRequests and
 * ServiceUnavailable), and the 502/504 a gateway answers when the service behind it does not.
 */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * How long `Retry-After` asks to wait: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when
 * absent or unreadable.
 * @example retryAfterMs(new Headers({ 'retry-after': '2' })) // 2000
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP-date always names its day and month; Date.parse alone would read "-1" as a year.
  const at = /[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before resend `n` (1-based) when the target gave no Retry-After: 0.5 s doubling to 8 s, with full jitter. */
export function backoffMs(n: number, random = Math.random): number {
  return Math.round(random() * Math.min(8000, 500 * 2 ** (n - 1)));
}

/** Thrown when a request got only transient answers for the whole wait budget, or the target stopped answering: the run ends with exit 2. */
export class TargetUnavailable extends Error {
  override readonly name = 'TargetUnavailable';
  constructor(
    message: string,
    /** The last request the target answered, when it had answered any. */
    readonly lastAnswered?: AnsweredRequest,
  ) {
    super(message);
  }
}

/** Thrown for a request the run's deadline (`--max-run-s`) left no time for: the scenario stops, unjudged. */
export class RunStopped extends Error {
  override readonly name = 'RunStopped';
}

/** Why the run stopped early, kept in the run's state folder for the runner to read when the run ends. */
export interface StopMark {
  reason: 'unavailable' | 'deadline';
  message: string;
  lastAnswered?: AnsweredRequest;
}

/**
 * What every scenario file of one run shares: its deadline, and the mark that the target is unavailable.
 * The first request to give up sets the mark (and writes it to a file, which other gates on the same state
 * folder read); every later request stops at once instead of waiting out a budget of its own.
 */
export interface RunGate {
  /** Throws {@link RunStopped} or {@link TargetUnavailable} when the run must send no more requests. */
  check(): void;
  /** How long a request may still take before the run's deadline (Infinity without one). */
  remainingMs(): number;
  /** Marks the target unavailable for the whole run. */
  markUnavailable(message: string): void;
  /**
   * A request (`GET /api/v1/documents`) got a complete answer (any status) at `at` (ms since the epoch, by
   * default now): the target is alive, however slow, and the requests that ended before it without one are
   * no longer a streak.
   */
  answered(request?: string, at?: number): void;
  /**
   * A request got no complete answer within the request timeout (`timeoutMs`), given up on at `at`. The
   * requests that end so in a row, in the order they ended (races end out of the order they were read),
   * stop the run: `maxUnanswered` of them once the target has answered anything, {@link SILENT_START} (the
   * CLI's probe counted) while it never has. The one that reaches the count marks the target unavailable
   * and throws {@link TargetUnavailable}, naming the last request answered: a target that stops finishing
   * its answers is judged in minutes, not at --max-run-s.
   */
  unanswered(timeoutMs: number, at?: number): void;
}

/** How many requests in a row, from the run's start, may get no complete answer before the target is taken for dead. */
export const SILENT_START = 2;

const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * @example const gate = createRunGate({ stateDir, deadlineAt: Date.now() + 600_000, before: { answered: 0, unanswered: 1 }, maxUnanswered: 5 });
 */
export function createRunGate({
  stateDir,
  deadlineAt,
  before = { answered: 0, unanswered: 0 },
  maxUnanswered = RUN_DEFAULTS.maxUnanswered,
}: {
  stateDir?: string;
  deadlineAt?: number;
  before?: Liveness;
  maxUnanswered?: number;
}): RunGate {
  let answeredAny = before.answered > 0;
  let last = before.lastAnswered;
  let lastAt = last?.at ?? Number.NEGATIVE_INFINITY;
  // When each request of the current streak was given up on: those that ended after the last answer.
  let streak: number[] = before.answered > 0 ? [] : Array.from({ length: before.unanswered }, () => Number.NEGATIVE_INFINITY);
  const markFile = stateDir ? join(stateDir, 'stopped.json') : undefined;
  let mark: StopMark | undefined;
  const read = (): StopMark | undefined => {
    if (mark || !markFile || !existsSync(markFile)) return mark;
    try {
      mark = JSON.parse(readFileSync(markFile, 'utf8')) as StopMark;
    } catch {
      // being written at this moment by another gate: read it on the next request
    }
    return mark;
  };
  const markUnavailable = (message: string, lastAnswered?: AnsweredRequest) => {
    mark = { reason: 'unavailable', message, ...(lastAnswered ? { lastAnswered } : {}) };
    if (markFile) writeFileSync(markFile, JSON.stringify(mark));
  };
  const gateCheck = () => {
    const found = read();
    if (found)
      throw found.reason === 'unavailable' ? new TargetUnavailable(found.message, found.lastAnswered) : new RunStopped(found.message);
    if (deadlineAt !== undefined && Date.now() >= deadlineAt) throw new RunStopped('the run reached its deadline (--max-run-s)');
  };
  const stopMessage = (timeoutMs: number, at: number) => {
    const opening = `no complete answer from the target in ${seconds(timeoutMs)} s`;
    const instead = 'so the run stops instead of waiting out --max-run-s';
    if (!answeredAny) return `${opening}: the first ${streak.length} requests of the run got none within --request-timeout-ms, ${instead}`;
    const lastOne = last
      ? `; the last request answered was ${last.request} at ${new Date(last.at).toISOString()}, ${seconds(at - last.at)} s before`
      : '';
    return `${opening}: ${streak.length} requests in a row got none within --request-timeout-ms (--max-unanswered ${maxUnanswered}), ${instead}${lastOne}`;
  };
  return {
    check: gateCheck,
    remainingMs: () => (deadlineAt === undefined ? Number.POSITIVE_INFINITY : deadlineAt - Date.now()),
    markUnavailable,
    answered(request, at = Date.now()) {
      answeredAny = true;
      streak = streak.filter((t) => t > at);
      if (at < lastAt) return;
      lastAt = at;
      if (request !== undefined) last = { request, at };
    },
    unanswered(timeoutMs, at = Date.now()) {
      if (at > lastAt) streak.push(at);
      if (streak.length < (answeredAny ? maxUnanswered : Math.min(SILENT_START, maxUnanswered))) return;
      if (!read()) markUnavailable(stopMessage(timeoutMs, at), last);
      gateCheck();
    },
  };
}

/** Reads the stop mark a run left in `stateDir`, if any (the runner, after the run). */
export function readStopMark(stateDir: string): StopMark | undefined {
  try {
    return JSON.parse(readFileSync(join(stateDir, 'stopped.json'), 'utf8')) as StopMark;
  } catch {
    return undefined;
  }
}

/** `--rate-limit`: requests per second across the run, or `auto` (as fast as the target takes, slower after each 429). */
export type RateLimit = number | 'auto';

/** Spaces the requests sent through it. */
export interface Pacer {
  /** Resolves when the next request may go (`count` requests at once, as a race sends them). */
  take(count?: number): Promise<void>;
  /** Tells the pacer how the target answered: `auto` slows down on a 429 and speeds up again on other answers. */
  answered(status: number): void;
}

/**
 * One pacer's share of the run's rate: pacers share no clock of requests, so each of `workers` pacers takes
 * `rate / workers` per second (the sum never exceeds the rate; the runner makes one pacer for the run). `auto` starts unpaced; each 429
 * doubles the gap between this pacer's requests (from 100 ms, at most 5 s) and every other answer takes
 * a tenth off it.
 * @example const pacer = createPacer(10, 2); await pacer.take(); // at most 5 requests a second through this pacer
 */
export function createPacer(rate: RateLimit | undefined, workers: number): Pacer {
  let gapMs = typeof rate === 'number' ? (1000 * workers) / rate : 0;
  let next = 0;
  return {
    async take(count = 1) {
      if (gapMs <= 0) return;
      const now = performance.now();
      const at = Math.max(now, next);
      next = at + gapMs * count;
      if (at > now) await sleep(at - now);
    },
    answered(status) {
      if (rate !== 'auto') return;
      if (status === 429) gapMs = Math.min(5000, Math.max(100, gapMs * 2));
      else if (gapMs > 0) gapMs = gapMs < 10 ? 0 : gapMs * 0.9;
    },
  };
}
