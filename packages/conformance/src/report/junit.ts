import junitReportBuilder, { type Builder } from 'junit-report-builder';
import { CHECK_AREAS } from '../run/areas.js';
import { formatFailure } from './failure-format.js';
import type { ConformanceReport } from './report.js';

// The package is CommonJS (`module.exports = builder`) while its types declare an ES default export.
const builder = junitReportBuilder as unknown as Builder;

/**
 * Writes the run as JUnit XML: one test suite per area and one test case per check (its id, so CI keeps a
 * history per check), failing with every failure in full, skipped with the reason when not exercised.
 * Scenarios that crashed without a check are test cases of their own. Suite and case names never carry the
 * run id (it is in the report and the timestamp): CI tools key their history and flake statistics by name.
 * @example writeJunit(report, 'reports/conformance.xml');
 */
export function writeJunit(report: ConformanceReport, file: string): void {
  const xml = builder.newBuilder();
  for (const area of Object.keys(CHECK_AREAS)) {
    const checks = report.checks.filter((c) => c.area === area);
    if (checks.length === 0) continue;
    const suite = xml.testSuite().name(`docproc conformance: ${area}`).timestamp(report.startedAt);
    for (const check of checks) {
      const test = suite.testCase().className(`docproc.conformance.${area}`).name(check.id);
      if (check.outcome === 'failed') {
        test.failure(`${check.failures.length} failure(s): ${check.description}`, check.id);
        test.standardOutput(check.failures.map((f) => `${formatFailureInFull(f)}\n  Test:       ${f.test}`).join('\n\n'));
      } else if (check.outcome === 'not-exercised') test.skipped().standardOutput(`not exercised: ${check.notExercised.join('; ')}`);
      else if (check.outcome === 'not-in-profile') test.skipped().standardOutput('full profile only (--profile full)');
      else if (check.warnings.length)
        test.standardOutput(check.warnings.map((w) => `warning: ${w.message} (seen ${w.count} time(s))`).join('\n'));
    }
  }
  if (report.unattributed.length) {
    const suite = xml.testSuite().name('docproc conformance: crashed scenarios');
    for (const crash of report.unattributed)
      suite
        .testCase()
        .className('docproc.conformance.crashed')
        .name(crash.test)
        .error(crash.error, 'crash', crash.stack ?? '');
  }
  xml.writeTo(file);
}

// JUnit files are read by CI tools, not a terminal: they get the texts the console caps, whole.
function formatFailureInFull(failure: Parameters<typeof formatFailure>[0]): string {
  return formatFailure(failure, undefined, Number.POSITIVE_INFINITY);
}
