import { createHash } from 'node:crypto';
import { cap } from '@docproc-kit/conformance/report/failure-format.js';
import type { ConformanceReport } from '@docproc-kit/conformance/report/report.js';
import { TRANSIENT_STATUSES } from '@docproc-kit/conformance/transport/transient.js';
import type { Contract } from '@docproc-kit/contract/load-contract.js';
import {
  createSeedRecording,
  type RecordingSummary,
  type SeedFileContents,
  type SeedRecording,
  type WriteOptions,
} from '../recording/seed-recording.js';
import { type SeenExchange, toExchange } from './observed-exchange.js';
import { proxyReport, violationsHar } from './proxy-report.js';
import { createProxyRecorder } from './recorder.js';
import { judgeRequest } from './request-judge.js';
import { judgeResponse } from './response-judge.js';
import { createSessionFacts } from './session-facts.js';
import { createViolationStore, type ProxySummary, type Violation } from './violation-store.js';

/** How the proxy judges: what every judge needs to know about the run. */
export interface JudgingSettings {
  /** The target's base URL. */
  target: string;
  /** The contract's source, as given (the report names it). */
  spec: string;
  strict: boolean;
  /** The most bytes of one response body the judge reads. */
  bodyCap: number;
  /** Violations (and violating exchanges) kept; counts are kept whole. */
  keep: number;
  /** Record the documents valid answers show, for a seed file (`--record`). */
  record?: boolean;
  /** Judge the requests too (default true); a HAR's requests may have lost their key and bodies to its export. */
  judgeRequests?: boolean;
}

/** The report files' contents at one moment. */
export interface JudgedReport {
  report: ConformanceReport;
  har: unknown;
}

/**
 * Where exchanges are judged, in this thread or another: `judge` hands one over and returns at once; the
 * rest answers what was concluded so far.
 */
export interface Judging {
  judge(seen: SeenExchange): void;
  /** Resolves once every exchange handed over so far is judged. */
  settled(): Promise<void>;
  newest(limit: number): Promise<Violation[]>;
  total(): Promise<number>;
  summary(): Promise<ProxySummary>;
  report(): Promise<JudgedReport>;
  /** The recording's seed file and summary so far (undefined unless `record`). */
  recording(options: WriteOptions): Promise<{ contents: SeedFileContents; summary: RecordingSummary } | undefined>;
  close(): Promise<void>;
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
 * Judging in this thread: each exchange through the request checks, the suite's response checks and the
 * stateful facts, its violations logged (one line each) and stored; with a recording, the documents of
 * each answer with no violation go into it. The worker runs the same.
 * @example const judging = createLocalJudging(settings, contract, console.log); judging.judge(seen);
 */
export function createLocalJudging(
  settings: JudgingSettings,
  contract: Contract,
  log?: (line: string) => void,
  recording: SeedRecording | undefined = settings.record ? createSeedRecording() : undefined,
): Judging {
  const startedAt = new Date().toISOString();
  const target = new URL(settings.target);
  const store = createViolationStore({ target: target.href, capacity: settings.keep });
  const facts = createSessionFacts(10_000);
  const recorder = recording ? createProxyRecorder(recording) : undefined;
  const judgeNow = (seen: SeenExchange) => {
    try {
      if (TRANSIENT_STATUSES.has(seen.status)) return store.skip('transient');
      const { exchange, bodyJudged } = toExchange(seen, { contract, target, bodyCap: settings.bodyCap });
      if (!bodyJudged) store.bodyNotJudged();
      const upload = seen.requestBody.kind === 'multipart' ? seen.requestBody.tapped : undefined;
      const tenant = tenantOf(seen.requestRawHeaders);
      const verdicts = [
        ...(settings.judgeRequests === false ? [] : judgeRequest(seen, exchange, contract)),
        ...judgeResponse(exchange, { contract, strict: settings.strict, bodyJudged }),
        ...(bodyJudged ? facts.observe(exchange, upload, tenant) : []),
      ];
      recorder?.judged(exchange, verdicts, bodyJudged, tenant);
      for (const violation of store.add(seen, exchange, verdicts)) log?.(violationLine(violation));
    } catch (error) {
      // Judging never breaks the proxy: an exchange the judge cannot read is counted and reported as such.
      store.skip('not-judged');
      log?.(`docproc proxy: could not judge ${seen.method} ${seen.url.split('?')[0]}: ${(error as Error).message}`);
    }
  };
  return {
    judge(seen) {
      if (seen.status === 0) store.skip('not-judged');
      else judgeNow(seen);
    },
    settled: () => Promise.resolve(),
    newest: async (limit) => store.newest(limit),
    total: async () => store.total,
    summary: async () => ({ ...store.summary(), ...(recorder ? { recording: recorder.recording.summary() } : {}) }),
    report: async () => ({
      report: proxyReport(store, { contract, target: settings.target, spec: settings.spec, strict: settings.strict, startedAt }),
      har: violationsHar(store, settings.target),
    }),
    recording: async (options) =>
      recorder ? { contents: recorder.recording.contents(options), summary: recorder.recording.summary() } : undefined,
    close: () => Promise.resolve(),
  };
}
