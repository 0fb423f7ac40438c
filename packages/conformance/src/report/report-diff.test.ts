import { describe, expect, it } from 'vitest';
import type { Check } from '../checks/index.js';
import { createTestRecord } from '../definitions/records.js';
import type { OperationCoverage } from './coverage-entries.js';
import { buildReport, type CheckOutcome, type ConformanceReport, type TestInput } from './report.js';
import { diffReports, formatDiff } from './report-diff.js';

const catalogOf = (ids: string[]): Check[] =>
  ids.map((id) => ({ id, profile: 'contract', area: id.split('.')[0] as Check['area'], description: `${id} holds`, rules: [] }));

/** A report whose checks have the given outcomes, and whose listDocuments responses had the given statuses. */
function reportWith(
  outcomes: Record<string, Exclude<CheckOutcome, 'not-in-profile'>>,
  statuses: Record<string, number> = {},
): ConformanceReport {
  const record = createTestRecord();
  for (const [id, outcome] of Object.entries(outcomes)) {
    record.declared.push(id);
    if (outcome === 'not-exercised') continue;
    record.counts[id] = {
      passed: outcome === 'passed' ? 1 : 0,
      failed: outcome === 'failed' ? 1 : 0,
      warnings: outcome === 'warned' ? 1 : 0,
    };
    if (outcome === 'failed') record.failures.push({ check: id, operation: 'op', request: 'GET /', received: 'x', expected: 'y', at: 0 });
    if (outcome === 'warned') record.warnings.push({ check: id, operation: 'op', message: 'odd' });
  }
  record.coverage.listDocuments = statuses;
  const test: TestInput = { file: 'f', name: 't', state: 'passed', errors: [], record };
  const info = {
    runId: 'r',
    profile: 'contract',
    target: 't',
    spec: 's',
    strict: false,
    only: null,
    startedAt: '',
    finishedAt: '',
  } as const;
  return buildReport(info, [test], catalogOf(Object.keys(outcomes)), { listDocuments: ['200', '400'] });
}

describe('diffReports: which checks changed between two runs', () => {
  it.each([
    { name: 'passed → failed is newly failing', before: 'passed', after: 'failed', list: 'newlyFailing' },
    { name: 'not exercised → failed is newly failing', before: 'not-exercised', after: 'failed', list: 'newlyFailing' },
    { name: 'failed → passed is fixed', before: 'failed', after: 'passed', list: 'fixed' },
    { name: 'failed → warned is fixed', before: 'failed', after: 'warned', list: 'fixed' },
    { name: 'failed → not exercised is no fix, another change', before: 'failed', after: 'not-exercised', list: 'otherChanges' },
    { name: 'passed → not exercised is another change', before: 'passed', after: 'not-exercised', list: 'otherChanges' },
    { name: 'failed → failed is still failing', before: 'failed', after: 'failed', list: 'stillFailing' },
    { name: 'passed → passed is no change', before: 'passed', after: 'passed', list: null },
  ] as const)('$name', ({ before, after, list }) => {
    const diff = diffReports(reportWith({ 'list.a': before, 'list.z': 'passed' }), reportWith({ 'list.a': after, 'list.z': 'passed' }));
    const lists = ['newlyFailing', 'fixed', 'otherChanges', 'stillFailing'] as const;
    for (const name of lists) {
      const ids = diff[name].map((c) => (typeof c === 'string' ? c : c.id));
      expect(ids, name).toEqual(name === list ? ['list.a'] : []);
    }
  });

  it('a check only one run had is another change, from or to absent', () => {
    const diff = diffReports(reportWith({ 'list.old': 'passed' }), reportWith({ 'list.new': 'passed' }));
    expect(diff.otherChanges.map((c) => `${c.id}: ${c.before} → ${c.after}`)).toEqual([
      'list.new: absent → passed',
      'list.old: passed → absent',
    ]);
  });

  it.each([
    { name: 'a status seen only after', before: { '200': 3 }, after: { '200': 5, '400': 1 }, cells: ['listDocuments 400: 0 → 1'] },
    { name: 'a status no longer seen', before: { '200': 3, '400': 2 }, after: { '200': 3 }, cells: ['listDocuments 400: 2 → 0'] },
    { name: 'counts that only vary are no change', before: { '200': 3, '400': 2 }, after: { '200': 9, '400': 1 }, cells: [] },
  ] as Array<{ name: string; before: Record<string, number>; after: Record<string, number>; cells: string[] }>)(
    'status cells: $name',
    ({ before, after, cells }) => {
      const diff = diffReports(reportWith({ 'list.a': 'passed' }, before), reportWith({ 'list.a': 'passed' }, after));
      expect(diff.statusCells.map((c) => `${c.operation} ${c.status}: ${c.before} → ${c.after}`)).toEqual(cells);
    },
  );

  it('partitions and states are compared when both runs record them, and left out when one does not', () => {
    const entry = (missing: string[]): OperationCoverage => ({
      operation: 'listDocuments',
      partitions: { exercised: 4 - missing.length, total: 4, missing },
      states: { reached: 2, total: 2, missing: [] },
    });
    const withCoverage = (missing: string[]) => {
      const report = reportWith({ 'list.a': 'passed' });
      return { ...report, coverage: { ...report.coverage, operations: [entry(missing)] } } as unknown as ConformanceReport;
    };
    const diff = diffReports(withCoverage(['limit=100']), withCoverage(['status=failed']));
    expect(diff.coverage).toEqual([
      {
        operation: 'listDocuments',
        kind: 'partitions',
        before: '3/4',
        after: '3/4',
        newlyMissing: ['status=failed'],
        newlyCovered: ['limit=100'],
      },
    ]);
    expect(diffReports(reportWith({ 'list.a': 'passed' }), withCoverage([])).coverage).toBeUndefined();
  });

  it('the console text names each changed check once, and says none when nothing changed', () => {
    const text = formatDiff(
      diffReports(reportWith({ 'list.a': 'passed', 'list.b': 'failed' }), reportWith({ 'list.a': 'failed', 'list.b': 'passed' })),
    );
    expect(text).toMatch(/Newly failing\n {4}✗ list\.a \(passed before; 1 failure\(s\)\): list\.a holds/);
    expect(text).toMatch(/Fixed\n {4}✓ list\.b \(now passed\)/);
    expect(formatDiff(diffReports(reportWith({ 'list.a': 'passed' }), reportWith({ 'list.a': 'passed' })))).toContain(
      'Newly failing: none',
    );
  });
});
