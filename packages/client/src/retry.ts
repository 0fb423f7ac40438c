import { sleep } from './backoff.js';
import type { Result } from './types.js';

/** The client's `retry` option: how hard to try again after a transient failure. */
export interface RetryOptions {
  /** Attempts in all, the first one included (default 3). */
  attempts?: number;
  /**
   * Longest wait before an attempt, in ms (default 10 000). A `Retry-After` longer than this ends the
   * retries: the 429 or 503 is returned rather than asked again too early.
   */
  maxDelayMs?: number;
}

/** A retry policy with its defaults applied. */
export interface RetryPolicy {
  attempts: number;
  maxDelayMs: number;
}

const FIRST_DELAY_MS = 250;

/** The policy of the `retry` option: none (`undefined`/`false`: one attempt), the defaults (`true`), or the given numbers. */
export function retryPolicy(option: RetryOptions | boolean | undefined): RetryPolicy {
  if (!option) return { attempts: 1, maxDelayMs: 0 };
  const { attempts = 3, maxDelayMs = 10_000 } = option === true ? {} : option;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`retry.attempts must be an integer of at least 1, not ${attempts}`);
  if (!(maxDelayMs >= 0)) throw new RangeError(`retry.maxDelayMs must be 0 or more, not ${maxDelayMs}`);
  return { attempts, maxDelayMs };
}

/** The wait a response asks for (`Retry-After` in seconds or as an HTTP date), in ms; undefined without one. */
export function retryAfterMs(response: Response | undefined): number | undefined {
  const value = response?.headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The wait before retry number `retry` (1, 2, ...): exponential backoff with full jitter (a random share of
 * 250 ms, 500 ms, 1 s, ... capped at `maxDelayMs`), but never less than the response's `Retry-After`.
 * Undefined when that `Retry-After` is longer than `maxDelayMs`.
 */
function delayBeforeRetry(retry: number, policy: RetryPolicy, response?: Response): number | undefined {
  const asked = retryAfterMs(response);
  if (asked !== undefined && asked > policy.maxDelayMs) return undefined;
  const backoff = Math.random() * Math.min(policy.maxDelayMs, FIRST_DELAY_MS * 2 ** (retry - 1));
  return Math.max(asked ?? 0, backoff);
}

/** How one attempt ended: an answer, or a thrown error (a network failure). */
export type Attempt<T> = { result: Result<T>; thrown?: undefined } | { result?: undefined; thrown: unknown };

/** Statuses after which the request certainly changed nothing: the contract's 429 and 503 ("Nothing was changed"). */
export const NOTHING_CHANGED = [429, 503];
/** Statuses that are transient but leave a non-idempotent request's outcome unknown (a gateway's, or a crash). */
export const TRANSIENT = [408, 429, 500, 502, 503, 504];

/**
 * Sends a request up to `policy.attempts` times while `again(attempt)` says the last one is worth
 * repeating, waiting as {@link delayBeforeRetry} says; an abort ends it at once. Resolves to the last
 * attempt (a thrown error of the last attempt is rethrown).
 * @example const result = await withRetry(policy, () => settle(api.GET(...)), (a) => a.thrown !== undefined, signal);
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  send: () => Promise<Result<T>>,
  again: (attempt: Attempt<T>) => boolean,
  signal?: AbortSignal,
): Promise<Attempt<T>> {
  for (let attempt = 1; ; attempt++) {
    let outcome: Attempt<T>;
    try {
      outcome = { result: await send() };
    } catch (thrown) {
      if (signal?.aborted) throw thrown;
      outcome = { thrown };
    }
    if (attempt >= policy.attempts || !again(outcome)) return outcome;
    const delay = delayBeforeRetry(attempt, policy, outcome.result?.response);
    if (delay === undefined) return outcome;
    await sleep(delay, signal);
  }
}

/** The result of an attempt, or its thrown error rethrown. */
export function settled<T>(attempt: Attempt<T>): Result<T> {
  if (attempt.result) return attempt.result;
  throw attempt.thrown;
}
