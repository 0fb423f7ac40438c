// Test-only: at most `n` holders at a time, first come first served.

/** A counting semaphore. */
export function createLimiter(n: number): { acquire(): Promise<void>; release(): void } {
  let free = n;
  const waiting: Array<() => void> = [];
  return {
    acquire: () => {
      if (free > 0) {
        free -= 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    release: () => {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    },
  };
}
