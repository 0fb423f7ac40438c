import { checks } from '../checks/index.js';
import type { WireDocument } from '../transport/api.js';
import type { Answer, ServiceModel, Verify } from './state.js';
import { instantOf } from './timestamps.js';

// The contract's timestamps name instants ("When the document was uploaded", "When anything about the
// document last changed", "When the last run finished"): the suite's clock observed those instants, so a
// timestamp must fall inside the time the suite was waiting for the answer that reports it, give or take
// the skew the user allows between the two clocks. A server writing local time as UTC, seconds as
// milliseconds, or a fixed or stale instant breaks this while every comparison among its own timestamps holds.

const MS = 1_000_000n;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Judges that `field` of `d` names an instant between sending the request and receiving `answer`
 * (`'during'`), or at least not after receiving it (`'not-after'`), within the model's clock skew.
 */
export function judgeClock(
  m: ServiceModel,
  d: Partial<WireDocument>,
  field: 'created_at' | 'updated_at' | 'processed_at',
  bound: 'during' | 'not-after',
  answer: Answer,
  verify: Verify,
  what: string,
): void {
  const at = instantOf(d[field]);
  if (at === undefined || !answer.window) return;
  const { sent, received } = answer.window;
  const skew = m.clockSkewMs;
  const latest = BigInt(Math.ceil(received + skew)) * MS;
  const earliest = BigInt(Math.floor(sent - skew)) * MS;
  verify(checks.model.onTheClock, at <= latest && (bound === 'not-after' || at >= earliest), () => ({
    received: `${what}: ${field} ${d[field]}`,
    expected:
      bound === 'during'
        ? `between ${iso(sent)} and ${iso(received)} (the request was sent and answered then, on the suite's clock), within --clock-skew-ms ${skew}`
        : `not after ${iso(received)} (when the answer arrived, on the suite's clock), within --clock-skew-ms ${skew}`,
  }));
}

/** Judges every timestamp of a document an answer shows: none may name a time after the answer arrived. */
export function judgeClockNotAfter(m: ServiceModel, d: Partial<WireDocument>, answer: Answer, verify: Verify, what: string): void {
  for (const field of ['created_at', 'updated_at', 'processed_at'] as const) judgeClock(m, d, field, 'not-after', answer, verify, what);
}
