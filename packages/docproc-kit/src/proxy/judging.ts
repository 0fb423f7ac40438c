import {
  type ConformanceReport,
  createObserver,
  type ObservedExchange,
  type ObservedSummary,
  type ObserverSettings,
  type Violation,
  violationLine,
} from '@docproc-kit/conformance/observe';
import type { Contract } from '@docproc-kit/contract/load-contract.js';
import {
  createSeedRecording,
  type RecordingSummary,
  type SeedFileContents,
  type SeedRecording,
  type WriteOptions,
} from '../recording/seed-recording.js';
import { createProxyRecorder } from './recorder.js';

/** How the proxy judges: what every judge needs to know about the run. */
export interface JudgingSettings extends ObserverSettings {
  /** Record the documents valid answers show, for a seed file (`--record`). */
  record?: boolean;
}

/** The summary `GET /_proxy/report` answers. */
export interface ProxySummary extends ObservedSummary {
  /** With `--record`: the documents recorded, and the answers not recorded by reason. */
  recording?: RecordingSummary;
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
  judge(seen: ObservedExchange): void;
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
  const observer = createObserver(settings, contract);
  const recorder = recording ? createProxyRecorder(recording) : undefined;
  return {
    judge(seen) {
      const judged = observer.observe(seen);
      if (judged === undefined) return;
      // Judging never breaks the proxy: an exchange the judges cannot read is counted and reported as such.
      if ('error' in judged) return log?.(`docproc proxy: could not judge ${seen.method} ${seen.url.split('?')[0]}: ${judged.error}`);
      try {
        recorder?.judged(judged.exchange, judged.verdicts, judged.bodyJudged, judged.tenant);
      } catch (error) {
        log?.(`docproc proxy: could not record ${seen.method} ${seen.url.split('?')[0]}: ${(error as Error).message}`);
      }
      for (const violation of judged.violations) log?.(violationLine(violation));
    },
    settled: () => Promise.resolve(),
    newest: async (limit) => observer.newest(limit),
    total: async () => observer.total,
    summary: async () => ({ ...observer.summary(), ...(recorder ? { recording: recorder.recording.summary() } : {}) }),
    report: async () => ({ report: observer.report(startedAt), har: observer.har() }),
    recording: async (options) =>
      recorder ? { contents: recorder.recording.contents(options), summary: recorder.recording.summary() } : undefined,
    close: () => Promise.resolve(),
  };
}
