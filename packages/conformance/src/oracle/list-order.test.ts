import { describe, expect, it } from 'vitest';
import { instant } from './list-order.js';

describe('the target’s own order of times', () => {
  it.each([
    ['2026-01-01T00:00:00.123456Z', '2026-01-01T00:00:00.123789Z'],
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.001Z'],
    ['2026-01-01T02:00:00.500+02:00', '2026-01-01T00:00:00.600Z'],
  ])('%s is before %s, whatever its precision or offset', (earlier, later) => {
    expect(instant(earlier) < instant(later)).toBe(true);
  });

  it('reads the same instant written two ways as one', () => {
    expect(instant('2026-01-01T02:00:00.250+02:00')).toBe(instant('2026-01-01T00:00:00.25Z'));
  });
});
