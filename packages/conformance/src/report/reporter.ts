import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SerializedError } from 'vitest';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { catalogFor } from '../checks/index.js';
import { contractFromDocument } from '../rules/contract.js';
import { formatFailures } from './failures-text.js';
import { writeJunit } from './junit.js';
import { buildReport, type ConformanceReport, type RunInfo, type TestInput } from './report.js';
import { formatSummary } from './summary.js';

/** Options the CLI passes to the reporter: the run, where to write the JSON report and JUnit XML, and each operation's documented statuses. */
export type ReporterOptions = Omit<RunInfo, 'startedAt' | 'finishedAt'> & {
  reportFile: string | null;
  junitFile: string | null;
  documented: Record<string, string[]>;
  /** The contract the run judges against: the catalog holds a boundary check per constraint it states. */
  contractDocument: OpenAPIV3_1.Document;
  /** Receives the report when the run ends (the CLI, in the same process). */
  onReport?: (report: ConformanceReport) => void;
};

const MARK = { passed: '✓', failed: '✗', skipped: '○', pending: '○' } as const;

/**
 * The suite's only console reporter: a line per scenario file as it ends, then every failure once (long
 * texts capped, a target that stopped answering said once), then the summary. It builds the JSON report
 * and hands it to the CLI in memory (`report`). No failure text ever goes through a stack-trace parser:
 * scenarios fail vitest's tests with one short line, and the verdicts travel in each test's record.
 */
export default class ConformanceReporter implements Reporter {
  private vitest?: Vitest;
  private readonly startedAt = new Date().toISOString();

  constructor(private readonly options: ReporterOptions) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    const o = this.options;
    this.print(
      `\n docproc conformance  run ${o.runId}  (profile ${o.profile}${o.strict ? ', strict' : ''}${o.only ? `, only ${o.only.join(',')}` : ''}${o.seed !== undefined ? `, seed ${o.seed}` : ''})\n   Target   ${o.target}\n`,
    );
  }

  onTestModuleEnd(module: TestModule): void {
    const tests = [...module.children.allTests()];
    const states = tests.map((t) => t.result().state);
    const count = (s: string) => states.filter((x) => x === s).length;
    const failed = count('failed') + (module.errors().length ? 1 : 0);
    const seconds = ((module.diagnostic().duration ?? 0) / 1000).toFixed(1);
    const lines = [
      `  ${failed ? MARK.failed : MARK.passed} ${basename(module.moduleId)}  ${count('passed')} passed, ${failed} failed, ${count('skipped')} skipped  (${seconds} s)`,
    ];
    for (const test of tests) {
      if (test.result().state !== 'failed') continue;
      const record = test.meta().conformance;
      const why = record?.failures.map((f) => f.check).join(', ') || (record?.crash ? 'crashed' : 'failed');
      lines.push(`      ${MARK.failed} ${test.fullName}  [${why}]`);
    }
    this.print(`${lines.join('\n')}\n`);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    const tests: TestInput[] = [];
    for (const mod of modules) {
      const file = mod.moduleId.replace(`${this.vitest?.config.root ?? ''}/`, '');
      for (const error of mod.errors())
        tests.push({ file, name: `${file} (loading)`, state: 'failed', errors: [firstLine(error.message)] });
      for (const test of mod.children.allTests()) {
        const result = test.result();
        const record = test.meta().conformance;
        tests.push({
          file,
          name: test.fullName,
          state: result.state,
          ...(result.state === 'skipped' && result.note ? { note: result.note } : {}),
          ...(test.diagnostic() ? { durationMs: Math.round(test.diagnostic()!.duration) } : {}),
          ...(record ? { record } : {}),
          errors: record?.crash ? [record.crash.message] : (result.errors ?? []).map((e) => firstLine(e.message)),
        });
      }
    }
    for (const error of unhandled)
      tests.push({ file: '(unhandled)', name: 'unhandled error', state: 'failed', errors: [firstLine(error.message)] });
    const { reportFile, junitFile, documented, onReport, contractDocument, ...info } = this.options;
    const catalog = catalogFor(contractFromDocument(contractDocument));
    const report = buildReport({ ...info, startedAt: this.startedAt, finishedAt: new Date().toISOString() }, tests, catalog, documented);
    if (reportFile) {
      mkdirSync(dirname(reportFile), { recursive: true });
      writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
    }
    if (junitFile) writeJunit(report, junitFile);
    onReport?.(report);
    const failures = formatFailures(report);
    if (failures) this.print(`\n${failures}\n`);
    this.print(formatSummary(report, reportFile));
  }

  private print(text: string): void {
    (this.vitest?.logger.outputStream ?? process.stdout).write(text);
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}
