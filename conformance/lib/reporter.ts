import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SerializedError } from 'vitest';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { catalog } from './checks/index.js';
import { buildReport, type RunInfo, type TestInput } from './report.js';
import { formatSummary } from './summary.js';

/** Options the CLI passes to the reporter: the run, where to write the report and the summary, and each operation's documented statuses. */
export type ReporterOptions = Omit<RunInfo, 'startedAt' | 'finishedAt'> & { reportFile: string | null; summaryFile: string; documented: Record<string, string[]> };

/**
 * Turns the run's test records into the JSON report (`--report`) and the console summary, which it writes
 * to `summaryFile` for `docproc conformance` to print after vitest's own (vitest runs reporters side by
 * side, so printing here could land in the middle of its summary). Loaded by path by the CLI.
 */
export default class ConformanceReporter implements Reporter {
  private vitest?: Vitest;
  private readonly startedAt = new Date().toISOString();

  constructor(private readonly options: ReporterOptions) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    const tests: TestInput[] = [];
    for (const mod of modules) {
      const file = mod.moduleId.replace(`${this.vitest?.config.root ?? ''}/`, '');
      for (const error of mod.errors()) tests.push({ file, name: `${file} (loading)`, state: 'failed', errors: [error.message] });
      for (const test of mod.children.allTests()) {
        const result = test.result();
        tests.push({
          file,
          name: test.fullName,
          state: result.state,
          ...(result.state === 'skipped' && result.note ? { note: result.note } : {}),
          ...(test.diagnostic() ? { durationMs: Math.round(test.diagnostic()!.duration) } : {}),
          ...(test.meta().conformance ? { record: test.meta().conformance } : {}),
          errors: (result.errors ?? []).map((e) => e.message.split('\n')[0]!),
        });
      }
    }
    for (const error of unhandled) tests.push({ file: '(unhandled)', name: 'unhandled error', state: 'failed', errors: [error.message] });
    const { reportFile, summaryFile, documented, ...info } = this.options;
    const report = buildReport({ ...info, startedAt: this.startedAt, finishedAt: new Date().toISOString() }, tests, catalog, documented);
    if (reportFile) {
      mkdirSync(dirname(reportFile), { recursive: true });
      writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
    }
    mkdirSync(dirname(summaryFile), { recursive: true });
    writeFileSync(summaryFile, formatSummary(report, reportFile));
  }
}
