import { checks } from '../checks/index.js';
import type { WireDocument } from '../transport/api.js';
import type { Answer, ModelJudge, ServiceModel } from './state.js';
import { instantOf } from './timestamps.js';

// The contract's timestamps name instants the suite's clock observed: each one a document's answer shows
// goes to `lifecycle.timestamps-on-the-clock` with the time the suite was waiting for that answer.

/**
 * Hands `field` of `d` to the clock check: it names an instant between sending the request and receiving
 * `answer` (`'during'`), or at least not after receiving it (`'not-after'`), within the model's clock skew.
 */
export function judgeClock(
  m: ServiceModel,
  d: Partial<WireDocument>,
  field: 'created_at' | 'updated_at' | 'processed_at',
  bound: 'during' | 'not-after',
  answer: Answer,
  judge: ModelJudge,
  what: string,
): void {
  const at = instantOf(d[field]);
  if (at === undefined || !answer.window) return;
  judge.check(checks.model.onTheClock, { what, field, value: d[field] as string, at, bound, window: answer.window, skewMs: m.clockSkewMs });
}

/** Judges every timestamp of a document an answer shows: none may name a time after the answer arrived. */
export function judgeClockNotAfter(m: ServiceModel, d: Partial<WireDocument>, answer: Answer, judge: ModelJudge, what: string): void {
  for (const field of ['created_at', 'updated_at', 'processed_at'] as const) judgeClock(m, d, field, 'not-after', answer, judge, what);
}
