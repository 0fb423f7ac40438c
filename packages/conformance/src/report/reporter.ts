import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { contractFromDocument } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { catalogFor } from '../checks/index.js';
import { coverageUniverse } from '../inputs/reach.js';
import { formatFailures } from './failures-text.js';
import { writeHtmlReport } from './html-report.js';
import { writeJunit } from './junit.js';
import { buildReport, type ConformanceReport, type RunInfo, type TestInput } from './report.js';
import { formatSummary } from './summary.js';

/** Options the CLI passes to the reporter: the run, where to write the JSON report and JUnit XML, and each operation's documented statuses. */
export type ReporterOptions = Omit<RunInfo, 'startedAt' | 'finishedAt'> & {
  reportFile: string | null;
  junitFile: string | null;
  /** Where to write the report as one HTML page (report/html-report.ts). */
  htmlFile?: string | null;
  documented: Record<string, string[]>;
  /** The contract the run judges against: the catalog holds a boundary check per constraint it states. */
  contractDocument: OpenAPIV3_1.Document;
  /** The deployment's upload limits when given (`--max-files`, `--max-file-bytes`): their partitions sit at them. */
  uploadLimits?: { maxFiles?: number; maxFileBytes?: number };
  /** Whether the run has another tenant's key (`--second-api-key`); without one, what only it reaches is a deployment limit. */
  secondTenant?: boolean;
};

/** One scenario file's run: its scenarios' outcomes, or why it did not load. */
export interface FileResult {
  /** Relative to the package's root (`src/scenarios/list.suite.ts`). */
  file: string;
  /** The file's own name, as the console shows it. */
  name: string;
  durationMs: number;
  tests: Array<Omit<TestInput, 'file'>>;
  /** The first line of the error that kept the file from loading. */
  loadError?: string;
}

const MARK = { passed: '✓', failed: '✗', skipped: '○', pending: '○' } as const;

/**
 * The suite's console reporter: a line per scenario file as it ends, then every failure once (long texts
 * capped, a target that stopped answering said once), then the summary. It builds the JSON report (and
 * the JUnit file) when the run ends and hands the report back.
 * @example const reporter = createReporter(options, process.stdout); reporter.start(); ...; const report = reporter.end(files, []);
 */
export function createReporter(options: ReporterOptions, out: Writable) {
  const startedAt = new Date().toISOString();
  const print = (text: string) => out.write(text);
  return {
    start(): void {
      const o = options;
      print(
        `\n docproc conformance  run ${o.runId}  (profile ${o.profile}${o.strict ? ', strict' : ''}${o.only ? `, only ${o.only.join(',')}` : ''}${o.seed !== undefined ? `, seed ${o.seed}` : ''})\n   Target   ${o.target}\n`,
      );
    },

    fileEnded(result: FileResult): void {
      const count = (s: string) => result.tests.filter((t) => t.state === s).length;
      const failed = count('failed') + (result.loadError !== undefined ? 1 : 0);
      const lines = [
        `  ${failed ? MARK.failed : MARK.passed} ${result.name}  ${count('passed')} passed, ${failed} failed, ${count('skipped')} skipped  (${(result.durationMs / 1000).toFixed(1)} s)`,
      ];
      for (const test of result.tests) {
        if (test.state !== 'failed') continue;
        const why = test.record?.failures.map((f) => f.check).join(', ') || (test.record?.crash ? 'crashed' : 'failed');
        lines.push(`      ${MARK.failed} ${test.name}  [${why}]`);
      }
      print(`${lines.join('\n')}\n`);
    },

    /** Builds the report from every file's results and the errors nothing awaited, writes the files asked for, prints failures and summary. */
    end(files: readonly FileResult[], unhandled: readonly string[]): ConformanceReport {
      const tests: TestInput[] = [];
      for (const result of files) {
        if (result.loadError !== undefined)
          tests.push({ file: result.file, name: `${result.file} (loading)`, state: 'failed', errors: [result.loadError] });
        for (const test of result.tests) tests.push({ file: result.file, ...test });
      }
      for (const error of unhandled) tests.push({ file: '(unhandled)', name: 'unhandled error', state: 'failed', errors: [error] });
      const { reportFile, junitFile, htmlFile, documented, contractDocument, uploadLimits, secondTenant, ...info } = options;
      const contract = contractFromDocument(contractDocument);
      const report = buildReport(
        { ...info, startedAt, finishedAt: new Date().toISOString() },
        tests,
        catalogFor(contract),
        documented,
        coverageUniverse(contract, { ...uploadLimits, ...(secondTenant !== undefined ? { secondTenant } : {}) }),
      );
      if (reportFile) {
        mkdirSync(dirname(reportFile), { recursive: true });
        writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
      }
      if (junitFile) writeJunit(report, junitFile);
      if (htmlFile) writeHtmlReport(report, htmlFile);
      const failures = formatFailures(report);
      if (failures) print(`\n${failures}\n`);
      print(formatSummary(report, reportFile));
      return report;
    },
  };
}
