import { describe, expect, it } from 'vitest';
import { type ClockObservation, judgeOnTheClock, judgeProcessedAt, judgeUpdatedAtMoves, type TimesSeen } from './model-times.js';

const ns = (ms: number) => BigInt(ms) * 1_000_000n;
const T = Date.parse('2024-05-02T09:14:03.000Z');
const clock = (at: number, bound: ClockObservation['bound'] = 'during'): ClockObservation => ({
  what: 'D1',
  field: 'created_at',
  value: new Date(at).toISOString(),
  at: ns(at),
  bound,
  window: { sent: T, received: T + 100 },
  skewMs: 50,
});
const seen = (transition: TimesSeen['transition'], edit: Partial<TimesSeen> = {}): TimesSeen => ({
  kind: 'seen',
  doc: { alias: 'D1', id: 7 },
  transition,
  status: transition === 'processing' ? 'processing' : 'completed',
  updatedAt: 'u',
  updated: 20n,
  processedAt: transition === 'processing' ? null : 'p',
  processed: transition === 'processing' ? null : 20n,
  before: { updated: 10n, processed: null },
  runStart: 10n,
  ...edit,
});

describe('the model run’s timestamp checks', () => {
  it('hold a timestamp to the time the suite waited for its answer, give or take the skew', () => {
    expect(judgeOnTheClock(clock(T - 50))).toBeUndefined();
    expect(judgeOnTheClock(clock(T + 150))).toBeUndefined();
    expect(judgeOnTheClock(clock(T - 51))?.expected).toContain('between 2024-05-02T09:14:03.000Z and 2024-05-02T09:14:03.100Z');
    expect(judgeOnTheClock(clock(T - 10_000, 'not-after'))).toBeUndefined();
    expect(judgeOnTheClock(clock(T + 151, 'not-after'))?.received).toMatch(/^D1: created_at /);
  });

  it('have updated_at move forward when a run ends, stay put while nothing changes, and never go back', () => {
    expect(judgeUpdatedAtMoves(seen('ended'))).toBeUndefined();
    expect(judgeUpdatedAtMoves(seen('ended', { updated: 10n, processed: 10n, before: { updated: 10n, processed: null } }))).toBeUndefined();
    expect(judgeUpdatedAtMoves(seen('ended', { updated: 10n, processed: 5n }))?.expected).toBe(
      'a later updated_at: the run ending changed the document',
    );
    expect(judgeUpdatedAtMoves(seen('ended', { processed: 30n }))?.expected).toBe('updated_at not before processed_at');
    expect(judgeUpdatedAtMoves(seen('unchanged', { before: { updated: 20n, processed: 20n } }))).toBeUndefined();
    expect(judgeUpdatedAtMoves(seen('unchanged'))?.expected).toContain('nothing about D1 changed since');
    expect(judgeUpdatedAtMoves(seen('processing', { updated: 9n }))?.expected).toContain('it never goes back');
    expect(judgeUpdatedAtMoves({ kind: 'retried', alias: 'D1', updatedAt: 'u', updated: 10n, before: 10n })).toBeDefined();
    expect(judgeUpdatedAtMoves({ kind: 'uploaded', part: 1, createdAt: 'c', created: 2n, updatedAt: 'u', updated: 1n })).toBeDefined();
  });

  it('have processed_at null while a run goes on, set when it ends (not before it started), and created_at never change', () => {
    expect(judgeProcessedAt(seen('processing'))).toBeUndefined();
    expect(judgeProcessedAt(seen('processing', { processed: 5n, processedAt: 'p' }))?.expected).toContain(
      'processed_at null while processing',
    );
    expect(judgeProcessedAt(seen('ended'))).toBeUndefined();
    expect(judgeProcessedAt(seen('ended', { processed: 9n }))?.expected).toContain('not before it started');
    expect(judgeProcessedAt(seen('unchanged', { before: { updated: 20n, processed: 19n } }))?.expected).toContain(
      'the processed_at seen before',
    );
    const created = { kind: 'created-at', on: 'read', doc: { alias: 'D1', id: 7 }, createdAt: 'c', created: 1n, uploaded: 1n } as const;
    expect(judgeProcessedAt(created)).toBeUndefined();
    expect(judgeProcessedAt({ ...created, created: 2n })?.expected).toBe('created_at as the upload gave it: it never changes');
    expect(judgeProcessedAt({ ...created, on: 'retry', created: undefined })?.received).toBe('created_at c');
  });
});
