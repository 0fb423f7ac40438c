import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CHECK_AREAS } from '../definitions/areas.js';
import { formatFailure } from './failure-format.js';
import type { ConformanceReport } from './report.js';

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

/**
 * Writes the run as JUnit XML: one test suite per area and one test case per check (its id, so CI keeps a
 * history per check), failing with every failure in full, skipped with the reason when not exercised.
 * Scenarios that crashed without a check are test cases of their own. Suite and case names never carry the
 * run id (it is in the report and the timestamp): CI tools key their history and flake statistics by name.
 * @example writeJunit(report, 'reports/conformance.xml');
 */
export function writeJunit(report: ConformanceReport, file: string): void {
  const suites: Array<{ counts: Counts; text: string }> = [];
  for (const area of Object.keys(CHECK_AREAS)) {
    const checks = report.checks.filter((c) => c.area === area);
    if (checks.length === 0) continue;
    const cases = checks.map((check) => {
      const open = `<testcase classname="docproc.conformance.${area}" name="${xml(check.id)}"`;
      if (check.outcome === 'failed')
        return testCase(open, [
          `<failure message="${xml(`${check.failures.length} failure(s): ${check.description}`)}" type="${xml(check.id)}"/>`,
          systemOut(check.failures.map((f) => `${formatFailureInFull(f)}\n  Test:       ${f.test}`).join('\n\n')),
        ]);
      if (check.outcome === 'not-exercised')
        return testCase(open, ['<skipped/>', systemOut(`not exercised: ${check.notExercised.join('; ')}`)]);
      if (check.outcome === 'not-in-profile') return testCase(open, ['<skipped/>', systemOut('full profile only (--profile full)')]);
      if (check.warnings.length)
        return testCase(open, [systemOut(check.warnings.map((w) => `warning: ${w.message} (seen ${w.count} time(s))`).join('\n'))]);
      return testCase(open, []);
    });
    const count = (...outcomes: string[]) => checks.filter((c) => outcomes.includes(c.outcome)).length;
    const counts = { tests: checks.length, failures: count('failed'), errors: 0, skipped: count('not-exercised', 'not-in-profile') };
    suites.push(testSuite(`name="docproc conformance: ${area}" timestamp="${xml(report.startedAt)}"`, counts, cases));
  }
  if (report.unattributed.length) {
    const cases = report.unattributed.map((crash) =>
      testCase(`<testcase classname="docproc.conformance.crashed" name="${xml(crash.test)}"`, [
        `<error message="${xml(crash.error)}" type="crash">${xml(crash.stack ?? '')}</error>`,
      ]),
    );
    const counts = { tests: cases.length, failures: 0, errors: cases.length, skipped: 0 };
    suites.push(testSuite('name="docproc conformance: crashed scenarios"', counts, cases));
  }
  const totals: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const { counts } of suites) for (const key of Object.keys(totals) as Array<keyof Counts>) totals[key] += counts[key];
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attributes(totals)}>\n${suites.map((s) => s.text).join('\n')}\n</testsuites>\n`,
  );
}

const attributes = (c: Counts) => `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}"`;

function testSuite(named: string, counts: Counts, cases: string[]): { counts: Counts; text: string } {
  return { counts, text: `  <testsuite ${named} ${attributes(counts)}>\n${cases.join('\n')}\n  </testsuite>` };
}

function testCase(open: string, children: string[]): string {
  return children.length ? `    ${open}>\n${children.map((c) => `      ${c}`).join('\n')}\n    </testcase>` : `    ${open}/>`;
}

const systemOut = (text: string) => `<system-out>${xml(text)}</system-out>`;

/** Text and attribute values escaped (`>` only where XML needs it); what XML 1.0 cannot hold at all (a target's NUL, say) replaced by U+FFFD. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[&<"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '"': '&quot;' })[c] ?? c)
    .replaceAll(']]>', ']]&gt;');
}

// JUnit files are read by CI tools, not a terminal: they get the texts the console caps, whole.
function formatFailureInFull(failure: Parameters<typeof formatFailure>[0]): string {
  return formatFailure(failure, undefined, Number.POSITIVE_INFINITY);
}
