import { redactParsedQuery } from '@docproc-kit/reference/http/redaction.js';
import type { JournalEntry } from '@docproc-kit/reference/journal/request-journal.js';
import type { AnyCheck } from '../definitions/check.js';
import type { Exchange } from '../definitions/exchange.js';
import { createTestRecord, type TestRecord } from '../definitions/records.js';
import { ConformanceFailure, type FailureRecord } from '../definitions/verdict.js';
import { codeOf } from '../transport/api.js';
import type { ObservedExchange } from './observed-exchange.js';
import type { Side, Verdict } from './verdicts.js';

/** One violation as `GET /_proxy/violations` shows it: the suite's failure record, and whose it is. */
export interface Violation extends FailureRecord {
  id: number;
  side: Side;
  /** The proxy's sequence number of the exchange that showed it. */
  exchange: number;
}

/** A violating exchange as the HAR keeps it: no headers, no bodies (so no key, no file's bytes). */
export interface ViolatingExchange {
  entry: JournalEntry;
  violations: string[];
}

/** What was concluded of the traffic observed so far (`GET /_proxy/report` answers it). */
export interface ObservedSummary {
  target: string;
  since: string;
  exchanges: { total: number; judged: number; transient: number; bodyNotJudged: number; notJudged: number };
  violations: { total: number; service: number; client: number; byCheck: Record<string, number>; kept: number };
  warnings: number;
  result: 'passed' | 'failed';
}

/** Everything the proxy concluded so far, bounded: counts are exact, the records kept are the newest. */
export interface ViolationStore {
  /** Records the verdicts on one exchange; returns its violations. */
  add(seen: ObservedExchange, exchange: Exchange, verdicts: Verdict[]): Violation[];
  /** An exchange passed without judging: a transient answer, one the proxy answered itself, one cut off. */
  skip(reason: 'transient' | 'not-judged'): void;
  bodyNotJudged(): void;
  /** Newest first. */
  newest(limit?: number): Violation[];
  summary(): ObservedSummary;
  /** The run as the suite's report reads one test's record. */
  testRecord(): TestRecord;
  violatingExchanges(): ViolatingExchange[];
  readonly total: number;
}

function journalEntry(seen: ObservedExchange, exchange: Exchange): JournalEntry {
  const [path, search = ''] = seen.url.split(/\?(.*)/s) as [string, string?];
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const had = query[name];
    query[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  const problem = exchange.status >= 400 && typeof exchange.json === 'object' ? (exchange.json as { detail?: unknown }) : undefined;
  const code = codeOf(exchange.json);
  return {
    request_id: exchange.headers.get('x-request-id') ?? exchange.requestId ?? '',
    started_ms: seen.startedAt,
    method: seen.method,
    path,
    query: redactParsedQuery(query),
    operation: exchange.target.operationId ?? null,
    status: seen.status,
    code: problem && typeof code === 'string' ? code : null,
    detail: problem && typeof problem.detail === 'string' ? problem.detail : null,
    duration_ms: seen.durationMs,
    parts:
      seen.requestBody.kind === 'multipart'
        ? seen.requestBody.tapped.parts.map((p) => ({ name: p.name ?? '', filename: p.filename ?? '', size: p.size }))
        : [],
  };
}

/**
 * A bounded store of verdicts: every check's counts, the newest `capacity` violations and warnings, and the
 * newest `capacity` violating exchanges for the HAR.
 * @example const store = createViolationStore({ target: 'http://127.0.0.1:8080', capacity: 1000 });
 */
export function createViolationStore({ target, capacity }: { target: string; capacity: number }): ViolationStore {
  const since = new Date().toISOString();
  const record = createTestRecord();
  const violations: Violation[] = [];
  const violating: ViolatingExchange[] = [];
  const byCheck: Record<string, number> = {};
  const exchanges = { total: 0, judged: 0, transient: 0, bodyNotJudged: 0, notJudged: 0 };
  let total = 0;
  let client = 0;
  let warnings = 0;
  const counts = (check: AnyCheck) => {
    const found = record.counts[check.id] ?? { passed: 0, failed: 0, warnings: 0 };
    record.counts[check.id] = found;
    return found;
  };
  const bounded = <T>(list: T[], item: T) => {
    list.push(item);
    if (list.length > capacity) list.shift();
  };
  return {
    add(seen, exchange, verdicts) {
      exchanges.total += 1;
      exchanges.judged += 1;
      const row = record.coverage[exchange.target.coverageKey] ?? {};
      record.coverage[exchange.target.coverageKey] = row;
      row[String(exchange.status)] = (row[String(exchange.status)] ?? 0) + 1;
      const found: Violation[] = [];
      for (const verdict of verdicts) {
        if (verdict.kind === 'pass') counts(verdict.check).passed += 1;
        else if (verdict.kind === 'warning') {
          counts(verdict.check).warnings += 1;
          warnings += 1;
          bounded(record.warnings, {
            check: verdict.check.id,
            operation: exchange.target.label,
            message: `${exchange.target.label}: ${verdict.finding.received} (a failure with --strict)`,
            ...(exchange.requestId ? { requestId: exchange.requestId } : {}),
          });
        } else {
          counts(verdict.check).failed += 1;
          total += 1;
          if (verdict.side === 'client') client += 1;
          byCheck[verdict.check.id] = (byCheck[verdict.check.id] ?? 0) + 1;
          const failure = new ConformanceFailure(verdict.check, { ...verdict.finding, exchange }).record;
          const violation: Violation = { id: total, side: verdict.side, exchange: seen.seq, ...failure, at: seen.startedAt };
          bounded(violations, violation);
          bounded(record.failures, failure);
          found.push(violation);
        }
      }
      if (found.length > 0) bounded(violating, { entry: journalEntry(seen, exchange), violations: found.map((v) => v.check) });
      return found;
    },
    skip(reason) {
      exchanges.total += 1;
      if (reason === 'transient') exchanges.transient += 1;
      else exchanges.notJudged += 1;
    },
    bodyNotJudged() {
      exchanges.bodyNotJudged += 1;
    },
    newest: (limit = capacity) => violations.slice(-limit).reverse(),
    summary: () => ({
      target,
      since,
      exchanges: { ...exchanges },
      violations: { total, service: total - client, client, byCheck: { ...byCheck }, kept: violations.length },
      warnings,
      result: total > 0 ? 'failed' : 'passed',
    }),
    testRecord: () => structuredClone(record),
    violatingExchanges: () => [...violating],
    get total() {
      return total;
    },
  };
}
