/** Resolves after `ms` milliseconds: the one pause of the suite (waits, pacing, polling). */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Growing polling delays: `initialMs` (50 ms), then half again each time, at most `maxMs` (1 s). */
export function* backoff(initialMs = 50, maxMs = 1000, factor = 1.5): Generator<number> {
  for (let delay = initialMs; ; delay = Math.min(maxMs, delay * factor)) yield delay;
}

/** How a poll ended: the last value read, whether it had settled, and after how many reads. */
export interface Polled<T> {
  value: T;
  /** False when the deadline passed first. */
  settled: boolean;
  polls: number;
}

/**
 * Reads with growing pauses (from `firstDelayMs`) until `settled` holds of what was read or `timeoutMs`
 * has passed. The deadline is judged by when a read was sent, not when its answer was handled: a runner
 * that stalled in between never blames the target for what it may have finished meanwhile (one more
 * read tells). No pause runs past the deadline.
 * @example const { value, settled } = await pollUntil(() => api.get(id), (a) => a.json.status !== 'processing', { timeoutMs: 60_000 });
 */
export async function pollUntil<T>(
  read: (polls: number) => Promise<T>,
  settled: (value: T) => boolean,
  options: { timeoutMs: number; firstDelayMs?: number },
): Promise<Polled<T>> {
  const deadline = Date.now() + options.timeoutMs;
  const delays = backoff(options.firstDelayMs);
  for (let polls = 1; ; polls++) {
    const sentAt = Date.now();
    const value = await read(polls);
    const done = settled(value);
    if (done || sentAt >= deadline) return { value, settled: done, polls };
    await sleep(Math.min(delays.next().value as number, Math.max(1, deadline - Date.now())));
  }
}
