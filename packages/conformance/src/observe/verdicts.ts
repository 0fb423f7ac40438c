import type { AnyCheck, Finding } from '../definitions/check.js';
import type { Exchange } from '../definitions/exchange.js';

/** Who a violation is about: the service's answer, or the client's request (a frontend told it sent a bad one). */
export type Side = 'service' | 'client';

/** One verdict the proxy reached on one exchange. */
export type Verdict =
  | { kind: 'pass'; check: AnyCheck }
  | { kind: 'warning'; check: AnyCheck; finding: Finding }
  | { kind: 'violation'; check: AnyCheck; finding: Finding; side: Side };

/** Everything the judges said about one exchange. */
export interface JudgedExchange {
  exchange: Exchange;
  verdicts: Verdict[];
  /** Why the exchange (or its body) was not judged, when it was not. */
  unjudged?: string;
}
