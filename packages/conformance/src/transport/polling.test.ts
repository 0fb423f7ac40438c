import { describe, expect, it } from 'vitest';
import { backoff, pollUntil } from './polling.js';

describe('polling until something has settled', () => {
  it('stops at the first read that has settled, and says after how many reads', async () => {
    const polled = await pollUntil(
      async (polls) => polls,
      (polls) => polls === 3,
      { timeoutMs: 10_000, firstDelayMs: 1 },
    );
    expect(polled).toEqual({ value: 3, settled: true, polls: 3 });
  });

  it('gives up once a read was sent after the deadline, with the last value read and settled false', async () => {
    const polled = await pollUntil(
      async () => 'processing',
      () => false,
      { timeoutMs: 30, firstDelayMs: 5 },
    );
    expect(polled.settled).toBe(false);
    expect(polled.value).toBe('processing');
    expect(polled.polls).toBeGreaterThan(1);
  });

  it('a read sent before the deadline whose answer came after it gets one more read, which tells', async () => {
    const slowRead = async (polls: number) => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      return polls === 1 ? 'processing' : 'completed';
    };
    const polled = await pollUntil(slowRead, (status) => status === 'completed', { timeoutMs: 10 });
    expect(polled).toEqual({ value: 'completed', settled: true, polls: 2 });
  });

  it('pauses 50 ms first, then half again each time, never more than 1 s', () => {
    const delays = backoff();
    const first = Array.from({ length: 10 }, () => delays.next().value as number);
    expect(first.slice(0, 3)).toEqual([50, 75, 112.5]);
    expect(Math.max(...first)).toBe(1000);
  });
});
