import { dirname } from 'node:path';
import { cap } from './failure-format.js';
import type { MissingReason } from './missing-reasons.js';
import { type ConformanceReport, coveragePercent, leftOutByOnly } from './report.js';

const MAX_LINES = 12;

function list(lines: string[]): string[] {
  return lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `    … and ${lines.length - MAX_LINES} more (see --report)`] : lines;
}

/** FAILED when a check failed; else UNAVAILABLE or STOPPED when the run ended early, unjudged; else PASSED. */
function headline(report: ConformanceReport): string {
  if (report.stopped?.reason === 'unavailable') return 'UNAVAILABLE (target unavailable: exit 2)';
  if (report.result === 'failed') return 'FAILED';
  return report.stopped ? 'STOPPED (--max-run-s reached before every check ran)' : 'PASSED';
}

/**
 * The console summary printed after the failures: check verdicts, what was not exercised, and the coverage gaps.
 * @example console.log(formatSummary(report, 'reports/conformance.json'));
 */
export function formatSummary(report: ConformanceReport, reportFile: string | null): string {
  const s = report.summary;
  const out = [
    '',
    ` docproc conformance  ${headline(report)}  (profile ${report.profile}${report.strict ? ', strict' : ''}, run ${report.runId})`,
    `   Target   ${report.target}`,
    ...(report.insecure
      ? ["   TLS      NOT VERIFIED (--insecure): nothing proves who answered; trust the target's CA with --ca-file"]
      : []),
    ...(report.seed !== undefined ? [`   Seed     ${report.seed} (--seed ${report.seed} runs the same random sequences again)`] : []),
    `   Checks   ${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s['not-exercised']} not exercised${s['not-in-profile'] ? `, ${s['not-in-profile']} only in the full profile` : ''}`,
  ];
  const r = report.resends;
  if (r?.total)
    out.push(
      `   Resent   ${r.total} request(s) after a transient answer (${Object.entries(r.byStatus)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ')}), waiting ${(r.waitedMs / 1000).toFixed(1)} s in all; never judged`,
    );
  if (report.stopped)
    out.push(
      `   Stopped  ${report.stopped.reason === 'unavailable' ? report.stopped.message : `${report.stopped.message}: the report has what the run had`}`,
    );
  const failed = report.checks.filter((c) => c.outcome === 'failed');
  if (failed.length)
    out.push(
      '   Failed',
      ...list(failed.map((c) => `    ✗ ${c.id}: ${c.failures.length} failure(s), first in ${JSON.stringify(c.failures[0]?.test)}`)),
    );
  if (report.unattributed.length)
    out.push('   Crashed (no check attributed)', ...list(report.unattributed.map((u) => `    ✗ ${u.test}: ${cap(u.error, 300)}`)));
  const warned = report.checks.filter((c) => c.outcome === 'warned' || (c.warnings.length && c.outcome !== 'failed'));
  if (warned.length)
    out.push(
      '   Warnings',
      ...list(warned.flatMap((c) => [...new Set(c.warnings.map((w) => w.message))].map((m) => `    ! ${c.id}: ${m}`))),
    );
  const skipped = report.checks.filter((c) => c.outcome === 'not-exercised');
  const unselected = skipped.filter((c) => report.only && leftOutByOnly(c, report.only));
  const unexercised = skipped.filter((c) => !unselected.includes(c));
  if (skipped.length)
    out.push('   Not exercised (not passed)', ...list(unexercised.map((c) => `    ○ ${c.id}: ${cap(c.notExercised[0] ?? '', 300)}`)));
  if (unselected.length)
    out.push(`    ○ ${unselected.length} checks in areas --only left out (${[...new Set(unselected.map((c) => c.area))].join(', ')})`);
  out.push(...coverageLines(report));
  const gaps = Object.entries(report.statuses)
    .filter(([, e]) => e.neverObserved.length)
    .map(([op, e]) => `    ${op}: ${e.neverObserved.join(', ')}`);
  if (gaps.length) out.push('   Documented statuses never observed', ...gaps);
  if (reportFile) {
    out.push(`   Report   ${reportFile}`);
    // Reproducers name their body files relative to the report's folder, so its CI artifact replays as is.
    if (failed.length) out.push(`            run its reproducers (curl) in ${dirname(reportFile)}: they read request bodies from there`);
  }
  out.push('');
  return out.join('\n');
}

/** How many names of what was not reached one operation's line shows (the report has them all). */
const MISSING_SHOWN = 4;

function named(missing: string[]): string {
  const shown = missing.slice(0, MISSING_SHOWN).join('; ');
  return missing.length > MISSING_SHOWN ? `${shown}; … and ${missing.length - MISSING_SHOWN} more` : shown;
}

/** `missing` grouped by the cause `why` gives each (a report without reasons: one group). */
function byCause(missing: string[], why: Record<string, MissingReason> | undefined): Array<[string | undefined, string[]]> {
  const groups = new Map<string | undefined, string[]>();
  for (const name of missing) {
    const cause = why?.[name]?.cause;
    groups.set(cause, [...(groups.get(cause) ?? []), name]);
  }
  return [...groups];
}

/**
 * One line per operation: partitions exercised / total, states reached / total, and what was not reached
 * by its cause; then what each cause was in this run.
 */
export function coverageLines(report: Pick<ConformanceReport, 'coverage'>): string[] {
  const operations = report.coverage?.operations ?? [];
  if (!operations.length) return [];
  const width = Math.max(...operations.map((o) => o.operation.length));
  const lines = [
    `   Coverage ${coveragePercent(report).toFixed(1)}% (input partitions exercised, document states reached; the report names each)`,
  ];
  const details = new Map<string, Set<string>>();
  for (const o of operations) {
    const { partitions: p, states: s } = o;
    lines.push(`    ${o.operation.padEnd(width)}  partitions ${p.exercised}/${p.total}, states ${s.reached}/${s.total}`);
    for (const [what, entry] of [
      ['not exercised', p],
      ['not reached', s],
    ] as const)
      for (const [cause, names] of byCause(entry.missing, entry.why))
        lines.push(`      ${what}${cause ? ` (${cause})` : ''}: ${named(names)}`);
    for (const reason of [...Object.values(p.why ?? {}), ...Object.values(s.why ?? {})])
      details.set(reason.cause, (details.get(reason.cause) ?? new Set()).add(reason.detail));
  }
  if (details.size)
    lines.push('   Why not reached', ...[...details].flatMap(([cause, texts]) => [...texts].map((t) => `    ${cause}: ${t}`)));
  return lines;
}
