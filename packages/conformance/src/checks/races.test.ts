import { describe, expect, it } from 'vitest';
import { retryChecks } from './document.js';
import { type RaceAnswer, raceChecks, retryRaceOutcome } from './races.js';

const accepted: RaceAnswer = { status: 202 };
const busy: RaceAnswer = { status: 409, code: 'document_busy' };
const race = (...answers: RaceAnswer[]) => answers;
const finished = (...tries: RaceAnswer[][]) => raceChecks.retryFinished.judge!({ kind: 'answers', tries });
const processing = (...tries: RaceAnswer[][]) => retryChecks.conflictWhileProcessing.judge!({ tries });

describe('a race of retries', () => {
  it.each<[string, RaceAnswer[], ReturnType<typeof retryRaceOutcome>]>([
    ['one 202, the rest 409 document_busy', race(busy, accepted, busy, busy), 'one'],
    ['every retry 409 document_busy', race(busy, busy, busy, busy), 'none'],
    ['two 202s, the rest 409 document_busy', race(accepted, busy, accepted, busy), 'apart'],
    ['a 409 of another code', race(accepted, { status: 409, code: 'conflict' }, busy, busy), 'wrong'],
    ['a 500', race(accepted, { status: 500 }, busy, busy), 'wrong'],
  ])('answered with %s is %s', (_name, answers, outcome) => {
    expect(retryRaceOutcome(answers)).toBe(outcome);
  });
});

describe('retries of a finished document released together', () => {
  it('pass with one 202 and three 409 document_busy', () => {
    expect(finished(race(accepted, busy, busy, busy))).toBeUndefined();
  });

  // A target whose runs take milliseconds can end the first run before a loaded machine handles the next retry.
  it('pass when a race with two 202s is followed by one with a single 202', () => {
    expect(finished(race(accepted, accepted, busy, busy), race(busy, accepted, busy, busy))).toBeUndefined();
  });

  it('fail when every race had more than one 202, showing each race', () => {
    const failure = finished(...Array.from({ length: 3 }, () => race(accepted, accepted, busy, busy)));
    expect(failure?.received).toMatch(/^race 1: .*; race 2: .*; race 3: /);
    expect(failure?.expected).toContain('raced 3 times, each time more than one 202');
  });

  it.each([
    ['no 202 at all', race(busy, busy, busy, busy)],
    ['an answer that is neither a 202 nor a 409 document_busy', race(accepted, { status: 500 }, busy, busy)],
  ])('fail at once on %s, whatever another race showed', (_name, wrong) => {
    expect(finished(wrong)).toBeDefined();
    expect(finished(race(accepted, accepted, busy, busy), wrong)).toBeDefined();
  });

  it('count one more attempt for each 202 of every race', () => {
    expect(raceChecks.retryFinished.judge!({ kind: 'after', attempts: 3, expected: 3 })).toBeUndefined();
    expect(raceChecks.retryFinished.judge!({ kind: 'after', attempts: 2, expected: 3 })?.expected).toBe(
      'attempts 3: one run started by each 202',
    );
  });
});

describe('retries of a processing document released together', () => {
  it.each([
    ['every retry 409 document_busy', race(busy, busy, busy, busy)],
    ['one 202 (the run had already ended)', race(accepted, busy, busy, busy)],
  ])('pass with %s', (_name, answers) => {
    expect(processing(answers)).toBeUndefined();
  });

  it('fail when every race accepted more than one retry, and not when a later race accepted one', () => {
    const twice = race(accepted, accepted, busy, busy);
    expect(processing(twice, twice, twice)).toBeDefined();
    expect(processing(twice, race(busy, busy, busy, busy))).toBeUndefined();
  });
});
