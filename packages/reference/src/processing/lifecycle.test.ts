import { describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../model.js';
import { decideOutcome, type Extraction, finishRun, SIMULATED_FAILURE, startRetry } from './lifecycle.js';

const T0 = '2024-05-02T09:14:03.120Z';
const T1 = '2024-05-02T09:20:11.002Z';
const doc = (change: Partial<DocumentRecord>): DocumentRecord => ({
  id: 41,
  tenant: 't',
  filename: 'invoice.pdf',
  content_type: 'application/pdf',
  size_bytes: 10,
  status: 'processing',
  attempts: 1,
  error: null,
  created_at: T0,
  updated_at: T0,
  processed_at: null,
  next_outcome: null,
  ...change,
});

describe('a retry', () => {
  it.each([
    ['completed', doc({ status: 'completed', processed_at: T0 })],
    ['failed', doc({ status: 'failed', attempts: 3, error: { code: 'unreadable_document', message: 'bad' }, processed_at: T0 })],
  ])('of a %s document starts a new run: processing, one more attempt, error and processed_at cleared', (_status, record) => {
    const decision = startRetry(record, T1);
    expect(decision).toEqual({
      ok: true,
      record: { ...record, status: 'processing', attempts: record.attempts + 1, error: null, processed_at: null, updated_at: T1 },
    });
  });

  it('of a processing document is refused as busy', () => {
    expect(startRetry(doc({ status: 'processing' }), T1)).toEqual({ ok: false, reason: 'busy' });
  });
});

const good: Extraction = { ok: true, text: 'PELICAN' };
const bad: Extraction = { ok: false, error: { code: 'unreadable_document', message: 'damaged' } };
const forcedError = { code: 'unreadable_document' as const, message: 'forced' };

describe('how a run ends', () => {
  it.each([
    {
      why: 'a good extraction completes with its text',
      extraction: good,
      forced: null,
      failureRate: 0,
      draw: 0.5,
      outcome: { status: 'completed', content: 'PELICAN' },
    },
    {
      why: 'an unreadable file fails with its error',
      extraction: bad,
      forced: null,
      failureRate: 0,
      draw: 0.5,
      outcome: { status: 'failed', error: bad.ok ? null : bad.error },
    },
    {
      why: 'a draw under the failure rate fails a good run',
      extraction: good,
      forced: null,
      failureRate: 0.5,
      draw: 0.49,
      outcome: { status: 'failed', error: SIMULATED_FAILURE },
    },
    {
      why: 'a draw at the failure rate does not',
      extraction: good,
      forced: null,
      failureRate: 0.5,
      draw: 0.5,
      outcome: { status: 'completed', content: 'PELICAN' },
    },
    {
      why: 'failure rate 1 fails every good run',
      extraction: good,
      forced: null,
      failureRate: 1,
      draw: 0.999,
      outcome: { status: 'failed', error: SIMULATED_FAILURE },
    },
    {
      why: 'the failure rate never turns unreadable into transient',
      extraction: bad,
      forced: null,
      failureRate: 1,
      draw: 0,
      outcome: { status: 'failed', error: bad.ok ? null : bad.error },
    },
    {
      why: 'a forced failure wins over a good run',
      extraction: good,
      forced: { outcome: 'failed', error: forcedError },
      failureRate: 0,
      draw: 0.5,
      outcome: { status: 'failed', error: forcedError },
    },
    {
      why: 'a forced failure without an error is a processing_error',
      extraction: good,
      forced: { outcome: 'failed' },
      failureRate: 0,
      draw: 0.5,
      outcome: { status: 'failed', error: expect.objectContaining({ code: 'processing_error' }) },
    },
    {
      why: 'a forced completion wins over a damaged file, with empty text',
      extraction: bad,
      forced: { outcome: 'completed' },
      failureRate: 1,
      draw: 0,
      outcome: { status: 'completed', content: '' },
    },
    {
      why: 'a forced completion keeps the real text',
      extraction: good,
      forced: { outcome: 'completed' },
      failureRate: 1,
      draw: 0,
      outcome: { status: 'completed', content: 'PELICAN' },
    },
    {
      why: 'a forced completion may bring its own text',
      extraction: good,
      forced: { outcome: 'completed', content: 'mock text' },
      failureRate: 0,
      draw: 0.5,
      outcome: { status: 'completed', content: 'mock text' },
    },
  ] as const)('$why', ({ extraction, forced, failureRate, draw, outcome }) => {
    expect(decideOutcome({ extraction, forced, failureRate, draw })).toEqual(outcome);
  });
});

describe('finishing a run', () => {
  it('records the outcome, the time, and uses up a forced outcome', () => {
    const running = doc({ next_outcome: { outcome: 'failed' } });
    expect(finishRun(running, { status: 'failed', error: forcedError }, T1)).toEqual({
      ...running,
      status: 'failed',
      error: forcedError,
      processed_at: T1,
      updated_at: T1,
      next_outcome: null,
    });
    expect(finishRun(running, { status: 'completed', content: 'x' }, T1)).toMatchObject({
      status: 'completed',
      error: null,
      processed_at: T1,
    });
  });
});
