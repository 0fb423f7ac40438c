import { createHash } from 'node:crypto';
import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { Exchange } from '../definitions/exchange.js';
import { cap } from '../report/failure-format.js';
import type { ConformanceReport } from '../report/report.js';
import { TRANSIENT_STATUSES } from '../transport/transient.js';
import { type ObservedExchange, toExchange } from './observed-exchange.js';
import { proxyReport, violationsHar } from './observed-report.js';
import { judgeRequest } from './request-judge.js';
import { judgeResponse } from './response-judge.js';
import { createSessionFacts } from './session-facts.js';
import type { Verdict } from './verdicts.js';
import { createViolationStore, type ObservedSummary, type Violation } from './violation-store.js';

/** How observed traffic is judged. */
export interface ObserverSettings {
  /** The target's base URL (reproducers send to it). */
  target: string;
  /** The contract's source, as given (the report names it). */
  spec: string;
  strict: boolean;
  /** The most bytes of one decoded response body the judges read. */
  bodyCap: number;
  /** Violations (and violating exchanges) kept; counts are kept whole. */
  keep: number;
  /** Judge the requests too (default true); a HAR's requests may have lost their key and bodies to its export. */
  judgeRequests?: boolean;
}

/** What the judges said of one exchange. */
export interface Judged {
  exchange: Exchange;
  verdicts: Verdict[];
  /** Its body was read whole and judged (not over the cap, its encoding decoded). */
  bodyJudged: boolean;
  /** Who sent it: a digest of its key (empty without one), never the key. */
  tenant: string;
  /** The verdicts that are violations, as stored. */
  violations: Violation[];
}

/** Judges exchanges as they are observed, and keeps what it concluded (bounded). */
export interface Observer {
  /**
   * Judges one exchange: undefined when it is not judged (transient, or cut off), `error` when the judges
   * could not read it (counted as not judged, never thrown).
   */
  observe(seen: ObservedExchange): Judged | { error: string } | undefined;
  /** The newest violations, newest first. */
  newest(limit: number): Violation[];
  readonly total: number;
  summary(): ObservedSummary;
  /** The suite's JSON report of the traffic so far. */
  report(startedAt: string): ConformanceReport;
  /** The violating exchanges as a HAR 1.2 log (no headers, no bodies). */
  har(): unknown;
}

/** The one log line of a violation: check, side, request, Received/Expected, reproducer (no key). */
export function violationLine(v: Violation): string {
  const flat = (text: string) => cap(text.replace(/\s*\n\s*/g, ' | '));
  return `docproc proxy: violation [${v.check}] (${v.side}) ${v.request}${v.requestId ? ` (X-Request-Id ${v.requestId})` : ''}: received ${flat(v.received)}; expected ${flat(v.expected)}; reproduce: ${v.curl ?? '(none)'}`;
}

// Tenants are told apart by their key, kept only as a digest in memory.
function tenantOf(rawHeaders: readonly string[]): string {
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.toLowerCase() === 'x-api-key')
      return createHash('sha256')
        .update(rawHeaders[i + 1]!)
        .digest('base64url')
        .slice(0, 16);
  return '';
}

/**
 * Each exchange through the request checks, the suite's response checks and the stateful facts across
 * exchanges; its verdicts stored. An exchange the judges cannot read is counted as not judged, never thrown.
 * @example const observer = createObserver(settings, contract); observer.observe(seen)?.violations
 */
export function createObserver(settings: ObserverSettings, contract: Contract): Observer {
  const target = new URL(settings.target);
  const store = createViolationStore({ target: target.href, capacity: settings.keep });
  const facts = createSessionFacts(10_000);
  return {
    observe(seen) {
      if (seen.status === 0) return void store.skip('not-judged');
      if (TRANSIENT_STATUSES.has(seen.status)) return void store.skip('transient');
      try {
        const { exchange, bodyJudged } = toExchange(seen, { contract, target, bodyCap: settings.bodyCap });
        const upload = seen.requestBody.kind === 'multipart' ? seen.requestBody.tapped : undefined;
        const tenant = tenantOf(seen.requestRawHeaders);
        const verdicts = [
          ...(settings.judgeRequests === false ? [] : judgeRequest(seen, exchange, contract)),
          ...judgeResponse(exchange, { contract, strict: settings.strict, bodyJudged }),
          ...(bodyJudged ? facts.observe(exchange, upload, tenant) : []),
        ];
        if (!bodyJudged) store.bodyNotJudged();
        return { exchange, verdicts, bodyJudged, tenant, violations: store.add(seen, exchange, verdicts) };
      } catch (error) {
        store.skip('not-judged');
        return { error: (error as Error).message };
      }
    },
    newest: (limit) => store.newest(limit),
    get total() {
      return store.total;
    },
    summary: () => store.summary(),
    report: (startedAt) =>
      proxyReport(store, { contract, target: settings.target, spec: settings.spec, strict: settings.strict, startedAt }),
    har: () => violationsHar(store, settings.target),
  };
}
