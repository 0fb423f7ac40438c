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
  ])('gives a slow target that %s answered more than two requests in a row without an answer', (_, before) => {
    const gate = createRunGate({ before });
    if (before.answered === 0) gate.answered();
    for (let i = 0; i < 4; i++) gate.unanswered(30_000);
    expect(() => gate.check()).not.toThrow();
  });
});

describe('the run gate, on a target that stops answering mid-run', () => {
  const probe = { answered: 1, unanswered: 0, lastAnswered: { request: 'GET /api/v1/documents', at: Date.parse('2026-01-02T03:04:05Z') } };
  const at = (s: number) => probe.lastAnswered.at + s * 1000;

  it('stops the run at the fifth request in a row without an answer, naming the last request answered and when', () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'gate-'));
    try {
      const gate = createRunGate({ stateDir, before: probe });
      gate.answered('POST /api/v1/documents', at(1));
      for (let i = 0; i < 4; i++) gate.unanswered(30_000, at(31 + i));
      expect(() => gate.unanswered(30_000, at(61))).toThrow(TargetUnavailable);
      const message =
        'no complete answer from the target in 30 s: 5 requests in a row got none within --request-timeout-ms (--max-unanswered 5), so the run stops instead of waiting out --max-run-s; the last request answered was POST /api/v1/documents at 2026-01-02T03:04:06.000Z, 60 s before';
      expect(() => gate.check()).toThrow(message);
      expect(readStopMark(stateDir)).toEqual({
        reason: 'unavailable',
        message,
        lastAnswered: { request: 'POST /api/v1/documents', at: at(1) },
      });
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it("names the CLI's probe when nothing of the run was answered", () => {
    const gate = createRunGate({ before: probe, maxUnanswered: 1 });
    expect(() => gate.unanswered(30_000, at(30))).toThrow(
      /the last request answered was GET \/api\/v1\/documents at 2026-01-02T03:04:05.000Z, 30 s before$/,
    );
  });

  // Requests end in the order they end, not the order they were read: a race's answers are judged together.
  it.each([
    [
      'an answer between them starts the count again',
      [
        ['u', 10],
        ['u', 11],
        ['a', 12],
        ['u', 13],
        ['u', 14],
      ],
      false,
    ],
    [
      'an answer that ended after them, though judged later, starts it again',
      [
        ['u', 10],
        ['u', 11],
        ['u', 12],
        ['a', 13],
        ['u', 14],
      ],
      false,
    ],
    [
      'an answer that ended before them, judged after them, does not',
      [
        ['u', 10],
        ['u', 11],
        ['a', 9],
        ['u', 12],
        ['u', 13],
      ],
      true,
    ],
    [
      'three in a row are not yet four',
      [
        ['u', 10],
        ['u', 11],
        ['u', 12],
      ],
      false,
    ],
  ] as const)('with --max-unanswered 4: %s', (_, events, stops) => {
    const gate = createRunGate({ before: probe, maxUnanswered: 4 });
    const play = () => {
      for (const [kind, s] of events) kind === 'a' ? gate.answered('GET /api/v1/documents/7', at(s)) : gate.unanswered(30_000, at(s));
    };
    if (stops) expect(play).toThrow(TargetUnavailable);
    else expect(play).not.toThrow();
  });
});
