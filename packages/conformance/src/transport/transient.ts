import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Liveness } from '../definitions/config.js';
import type { ResendRecord } from '../definitions/records.js';
import { sleep } from './polling.js';

export type { Liveness, ResendRecord };

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

/** Thrown when a request got only transient answers for the whole wait budget: the run ends with exit 2. */
export class TargetUnavailable extends Error {
  override readonly name = 'TargetUnavailable';
}

/** Thrown for a request the run's deadline (`--max-run-s`) left no time for: the scenario stops, unjudged. */
export class RunStopped extends Error {
  override readonly name = 'RunStopped';
}

/** Why the run stopped early, kept in the run's state folder for the runner to read when the run ends. */
export interface StopMark {
  reason: 'unavailable' | 'deadline';
  message: string;
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
  /** A request got a complete answer (any status): the target is alive, however slow. */
  answered(): void;
  /**
   * A request got no complete answer within the request timeout (`timeoutMs`). While no request of the run
   * has had one, the {@link SILENT_START}-th such request (the CLI's probe counted) marks the target
   * unavailable and throws {@link TargetUnavailable}: a target that never finishes an answer is judged in
   * minutes, not at --max-run-s.
   */
  unanswered(timeoutMs: number): void;
}

/** How many requests in a row, from the run's start, may get no complete answer before the target is taken for dead. */
export const SILENT_START = 2;

/**
 * @example const gate = createRunGate({ stateDir, deadlineAt: Date.now() + 600_000, before: { answered: 0, unanswered: 1 } });
 */
export function createRunGate({
  stateDir,
  deadlineAt,
  before = { answered: 0, unanswered: 0 },
}: {
  stateDir?: string;
  deadlineAt?: number;
  before?: Liveness;
}): RunGate {
  const seen = { ...before };
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
  const markUnavailable = (message: string) => {
    mark = { reason: 'unavailable', message };
    if (markFile) writeFileSync(markFile, JSON.stringify(mark));
  };
  const gateCheck = () => {
    const found = read();
    if (found) throw found.reason === 'unavailable' ? new TargetUnavailable(found.message) : new RunStopped(found.message);
    if (deadlineAt !== undefined && Date.now() >= deadlineAt) throw new RunStopped('the run reached its deadline (--max-run-s)');
  };
  return {
    check: gateCheck,
    remainingMs: () => (deadlineAt === undefined ? Number.POSITIVE_INFINITY : deadlineAt - Date.now()),
    markUnavailable,
    answered() {
      seen.answered++;
    },
    unanswered(timeoutMs) {
      seen.unanswered++;
      if (seen.answered > 0 || seen.unanswered < SILENT_START) return;
      const message = `no complete answer from the target in ${Math.round(timeoutMs / 1000)} s: the first ${seen.unanswered} requests of the run got none within --request-timeout-ms, so the run stops instead of waiting out --max-run-s`;
      if (!read()) markUnavailable(message);
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
