/** Growing delays for polling: starts at `initialMs`, grows by half each call, capped at `maxMs`. */
export function createBackoff({ initialMs, maxMs, factor = 1.5 }: { initialMs: number; maxMs: number; factor?: number }) {
  let current = initialMs;
  return {
    next(): number {
      const delay = current;
      current = Math.min(maxMs, current * factor);
      return delay;
    },
  };
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first (browser-safe). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
