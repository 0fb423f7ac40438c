/** The plain-text form of a contract diff's report, for people: grouped by severity, then the implementers' work, then prose. */
import type { Decision } from './accepted-breaks.js';
import { type BehaviourReport, behaviourBreaks } from './behaviour.js';
import type { DiffReport, ReportedChange } from './diff-report.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function decisionText(decision: Decision): string {
  return decision.by === 'version-bump'
    ? `accepted: the base path moves from /api/v${decision.from} to /api/v${decision.to}`
    : `accepted ${decision.entry.date}: ${decision.entry.why}`;
}

function changeLines(change: ReportedChange): string[] {
  return [
    `  ${change.rule}  ${change.location}`,
    `      ${change.why}`,
    ...(change.accepted ? [`      ${decisionText(change.accepted)}`] : []),
  ];
}

function group(title: string, changes: readonly ReportedChange[]): string[] {
  return changes.length === 0 ? [] : ['', `${title} (${changes.length})`, ...changes.flatMap(changeLines)];
}

/**
 * The report as text; `behaviour` adds what the behavioural run found.
 * @example process.stdout.write(formatDiffText(report));
 */
export function formatDiffText(report: DiffReport, behaviour?: BehaviourReport): string {
  const of = (severity: string, accepted: boolean) =>
    report.changes.filter((c) => c.severity === severity && Boolean(c.accepted) === accepted);
  const lines = [
    `docproc contract diff  ${report.base} -> ${report.head}`,
    ...group('Breaking: a client written to BASE can fail against HEAD', of('breaking', false)),
    ...group('Breaking, accepted by a recorded decision', of('breaking', true)),
    ...group('Warning: some clients written to BASE can fail', of('warning', false)),
    ...group('Compatible', of('compatible', false)),
  ];
  if (report.implementers.length > 0) {
    lines.push('', `What an implementation of BASE must change (${report.implementers.length}; never a failure)`);
    for (const item of report.implementers) lines.push(`  ${item.rule}  ${item.location}`, `      ${item.what}`);
  }
  if (report.prose.length > 0) {
    lines.push('', `Normative sentences added, removed or changed (${report.prose.length})`);
    for (const item of report.prose) {
      lines.push(`  ${item.kind}  ${item.location}`);
      if (item.base !== undefined) lines.push(`      - ${item.base}`);
      if (item.head !== undefined) lines.push(`      + ${item.head}`);
      const { match, rules, checks } = item.feeds;
      lines.push(
        match === 'none'
          ? '      feeds no conformance check (no prose rule quotes it)'
          : `      ${match === 'similar' ? 'was likely' : 'is'} ${rules.join(', ')}, feeding ${checks.length === 0 ? 'no check yet' : checks.map((c) => c.id).join(', ')}`,
      );
    }
  }
  if (behaviour) lines.push(...behaviourLines(behaviour));
  const { breaking, warning, compatible, accepted } = report.counts;
  const broken = breaking + (behaviour ? behaviourBreaks(behaviour) : 0);
  lines.push(
    '',
    `${plural(breaking, 'breaking change')}${accepted > 0 ? ` (${accepted} more accepted)` : ''}, ${plural(warning, 'warning')}, ${compatible} compatible${
      behaviour
        ? `; ${plural(behaviour.brokenPromises.length, 'old promise')} broken, ${plural(behaviour.typeFailures.length, 'type failure')}`
        : ''
    }: exit ${broken > 0 ? 1 : 0}`,
  );
  return `${lines.join('\n')}\n`;
}

function behaviourLines(behaviour: BehaviourReport): string[] {
  const lines = ['', `BASE's conformance against ${behaviour.baseUrl}: ${plural(behaviour.brokenPromises.length, 'old promise')} broken`];
  for (const check of behaviour.brokenPromises) {
    lines.push(`  ${check.id}  ${check.description}`);
    for (const failure of check.failures.slice(0, 3)) lines.push(`      ${failure}`);
    if (check.failures.length > 3) lines.push(`      … and ${check.failures.length - 3} more (--format json lists every one)`);
  }
  for (const failure of behaviour.unattributed) lines.push(`  (no check)  ${failure}`);
  lines.push('', `BASE's client types compiled against HEAD's: ${plural(behaviour.typeFailures.length, 'failure')}`);
  for (const failure of behaviour.typeFailures) lines.push(`  ${failure.what}`, `      ${failure.message}`);
  return lines;
}
