import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backoffMs, createPacer, createRunGate, readStopMark, retryAfterMs, TargetUnavailable } from './transient.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-02T03:04:05Z');
  it.each([
    ['delay-seconds', '2', 2000],
    ['zero', '0', 0],
    ['an HTTP-date 7 s ahead', 'Fri, 02 Jan 2026 03:04:12 GMT', 7000],
    ['an HTTP-date in the past (no wait)', 'Fri, 02 Jan 2026 03:00:00 GMT', 0],
  ])('reads %s', (_, value, ms) => {
    expect(retryAfterMs(new Headers({ 'retry-after': value }), now)).toBe(ms);
  });
  it.each([
    ['absent', undefined],
    ['not a number or a date', 'soon'],
    ['a negative number', '-1'],
  ])('gives nothing for %s, so a backoff is used', (_, value) => {
    expect(retryAfterMs(new Headers(value === undefined ? {} : { 'retry-after': value }), now)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles from 0.5 s up to 8 s, jittered below that', () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => backoffMs(n, () => 1))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(backoffMs(3, () => 0.25)).toBe(500);
  });
});

describe('createPacer', () => {
  it('gives each of the run workers its share of --rate-limit: 10/s over 2 workers is one request every 200 ms here', async () => {
    const pacer = createPacer(10, 2);
    const started = performance.now();
    for (let i = 0; i < 4; i++) await pacer.take();
    // The first goes at once, the next three 200 ms apart.
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);
  });
  it('auto: unpaced until a 429, slower after each, back to unpaced after enough other answers', async () => {
    const pacer = createPacer('auto', 2);
    const timed = async () => {
      const t = performance.now();
      await pacer.take();
      await pacer.take();
      return performance.now() - t;
    };
    expect(await timed()).toBeLessThan(50);
    pacer.answered(429);
    pacer.answered(429);
    expect(await timed()).toBeGreaterThanOrEqual(190);
    for (let i = 0; i < 60; i++) pacer.answered(200);
    expect(await timed()).toBeLessThan(50);
  });
});

describe('the run gate, on a target that never finishes an answer', () => {
  it('stops the run at the second request of its start that got no complete answer: exit 2, not a wait for --max-run-s', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'gate-'));
    try {
      const gate = createRunGate({ stateDir });
      gate.unanswered(30_000);
      expect(() => gate.unanswered(30_000)).toThrow(TargetUnavailable);
      expect(() => gate.check()).toThrow(/^no complete answer from the target in 30 s/);
      expect(readStopMark(stateDir)).toMatchObject({
        reason: 'unavailable',
        message: expect.stringMatching(/in 30 s: the first 2 requests/),
      });
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it("counts the CLI's probe that got no answer as the first", () => {
    const gate = createRunGate({ before: { answered: 0, unanswered: 1 } });
    expect(() => gate.unanswered(10_000)).toThrow(/no complete answer from the target in 10 s/);
  });

  it.each([
    ['a request of the run', { answered: 0, unanswered: 0 }],
    ["the CLI's probe", { answered: 1, unanswered: 0 }],
  ])('never stops a slow target once %s was answered: it gets its full run', (_, before) => {
    const gate = createRunGate({ before });
    if (before.answered === 0) gate.answered();
    for (let i = 0; i < 5; i++) gate.unanswered(30_000);
    expect(() => gate.check()).not.toThrow();
  });
});
