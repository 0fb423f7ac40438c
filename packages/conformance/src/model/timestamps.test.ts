import { describe, expect, it } from 'vitest';
import { instantOf, TimestampGrain } from './timestamps.js';

describe('instantOf', () => {
  it.each([
    ['2024-05-02T09:14:03Z', '2024-05-02T09:14:03.000Z'],
    ['2024-05-02T11:14:03.120+02:00', '2024-05-02T09:14:03.120Z'],
    ['2024-05-02T09:14:03.120123Z', '2024-05-02T11:14:03.120123+02:00'],
    ['2024-05-02t09:14:03.5z', '2024-05-02T09:14:03.500Z'],
    ['2024-05-01T23:44:03-09:30', '2024-05-02T09:14:03Z'],
  ])('reads %s as the same instant as %s', (a, b) => {
    expect(instantOf(a)).toBe(instantOf(b));
  });

  it('keeps what a server wrote below the millisecond', () => {
    expect(instantOf('2024-05-02T09:14:03.120124Z')! - instantOf('2024-05-02T09:14:03.120123Z')!).toBe(1000n);
  });

  it.each([null, 42, '', '2024-05-02', '2024-05-02T09:14:03', 'yesterday', '2024-13-02T09:14:03Z'])('says %j is no timestamp', (text) => {
    expect(instantOf(text)).toBeUndefined();
  });
});

describe('TimestampGrain', () => {
  it.each([
    { seen: [], ms: 1000 },
    { seen: ['2024-05-02T09:14:03Z', '2024-05-02T09:14:07Z'], ms: 1000 },
    { seen: ['2024-05-02T09:14:03.100Z', '2024-05-02T09:14:03.120Z', '2024-05-02T09:14:03.123Z'], ms: 1 },
    { seen: ['2024-05-02T11:14:03.120123+02:00'], ms: 0.001 },
    { seen: ['not a time', '2024-05-02T09:14:03.5Z'], ms: 100 },
  ])('learns a tick of $ms ms from $seen', ({ seen, ms }) => {
    const grain = new TimestampGrain();
    for (const t of seen) grain.see(t);
    expect(grain.ms).toBe(ms);
  });
});
