import type { FailureRecord } from '../definitions/verdict.js';
import { cap, formatFailure } from './failure-format.js';
import type { ConformanceReport } from './report.js';

type Failure = FailureRecord & { test: string };

const MAX_OTHER_TESTS = 5;

/**
 * The failures of a run as the console shows them: each failed check once (its first failure in full,
 * capped, and the other tests it failed in by name), a target that stopped answering said once with the
 * request that showed it, and crashes no check claimed. Linear in the size of the report.
 * @example process.stdout.write(formatFailures(report));
 */
export function formatFailures(report: ConformanceReport): string {
  const blocks: string[] = [];
  const silent = report.checks
    .flatMap((c) => c.failures)
    .filter((f) => f.noResponse !== undefined)
    .sort((a, b) => a.at - b.at);
  // One request without an answer is a check like any other; several mean the target went away, and
  // every later "no response" follows from the first.
  const stopped = silent.length > 1 ? silent[0]! : undefined;
  if (stopped) {
    const tests = [...new Set(silent.slice(1).map((f) => f.test))];
    blocks.push(
      [
        `Target stopped responding at ${stopped.requestId ? `request ${stopped.requestId}` : 'a request'} (${stopped.request}): ${stopped.noResponse}`,
        `  ${silent.length - 1} later request(s) got no response either, in ${tests.length} test(s): ${names(tests)}`,
        '  Their failures follow from this one and are not printed; the report lists them.',
      ].join('\n'),
    );
  }
  for (const check of report.checks) {
    const shown = check.failures.filter((f) => !stopped || f === stopped || f.noResponse === undefined);
    if (shown.length === 0) continue;
    const [first, ...others] = shown as [Failure, ...Failure[]];
    const lines = [`✗ ${formatFailure(first, check.description)}`, `  Test:       ${first.test}`];
    const otherTests = [...new Set(others.map((f) => f.test))].filter((t) => t !== first.test);
    if (otherTests.length) lines.push(`  Also in:    ${otherTests.length} other test(s): ${names(otherTests)}`);
    blocks.push(lines.join('\n'));
  }
  for (const crash of report.unattributed) blocks.push(`✗ ${crash.test}\n  Crashed:    ${cap(crash.error)}`);
  return blocks.join('\n\n');
}

function names(tests: string[]): string {
  const shown = tests
    .slice(0, MAX_OTHER_TESTS)
    .map((t) => JSON.stringify(t))
    .join(', ');
  return tests.length > MAX_OTHER_TESTS ? `${shown} and ${tests.length - MAX_OTHER_TESTS} more` : shown;
}
