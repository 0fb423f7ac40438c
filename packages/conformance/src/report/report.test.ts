import { describe, expect, it } from 'vitest';
import type { Check } from '../checks/index.js';
import { createTestRecord, type TestRecord } from '../definitions/records.js';
import { buildReport, coveragePercent, NO_GENERATOR, type RunInfo, type TestInput } from './report.js';
import { coverageLines } from './summary.js';

const check = (id: string, profile: 'contract' | 'full' = 'contract'): Check => ({
  id,
  profile,
  area: id.split('.')[0] as Check['area'],
  description: '',
  rules: [],
});
const catalog = [check('list.a'), check('list.b'), check('list.c', 'full'), check('get.d')];
const info: RunInfo = { runId: 'r', profile: 'contract', target: 't', spec: 's', strict: false, only: null, startedAt: '', finishedAt: '' };

function record(edit: (r: TestRecord) => void): TestRecord {
  const r = createTestRecord();
  edit(r);
  return r;
}

function test(name: string, state: TestInput['state'], r?: TestRecord, note?: string): TestInput {
  return { file: 'f', name, state, errors: state === 'failed' ? ['boom'] : [], ...(r ? { record: r } : {}), ...(note ? { note } : {}) };
}

describe('buildReport', () => {
  const failure = { check: 'list.b', operation: 'op', request: 'GET /', received: 'x', expected: 'y', at: 0 };
  const report = buildReport(
    info,
    [
      test(
        'passes a',
        'passed',
        record((r) => {
          r.declared = ['list.a'];
          r.counts['list.a'] = { passed: 2, failed: 0, warnings: 0 };
          r.coverage.listDocuments = { '200': 2 };
        }),
      ),
      test(
        'fails b',
        'failed',
        record((r) => {
          r.declared = ['list.b', 'get.d'];
          r.counts['list.b'] = { passed: 0, failed: 1, warnings: 0 };
          r.failures.push(failure);
        }),
      ),
      test(
        'crashes',
        'failed',
        record((r) => {
          r.declared = [];
        }),
      ),
    ],
    catalog,
    { listDocuments: ['200', '400'] },
  );
  const outcome = (id: string) => report.checks.find((c) => c.id === id)!;

  it.each([
    ['list.a', 'passed'],
    ['list.b', 'failed'],
    ['list.c', 'not-in-profile'],
    ['get.d', 'not-exercised'],
  ])('reports %s as %s', (id, expected) => {
    expect(outcome(id).outcome).toBe(expected);
  });

  it('says why a check was not exercised: its scenario failed before reaching it', () => {
    expect(outcome('get.d').notExercised).toEqual(['fails b: not reached, the scenario failed first']);
  });

  it('keeps a failure that no check claims, and fails the run for it', () => {
    expect(report.unattributed).toEqual([{ test: 'crashes', error: 'boom' }]);
    expect(report.result).toBe('failed');
  });

  it('fills the coverage matrix and lists what was never observed', () => {
    expect(report.statuses.listDocuments).toEqual({ documented: ['200', '400'], observed: { '200': 2 }, neverObserved: ['400'] });
  });

  it("reports a skipped scenario's checks as not exercised with its note, never as passed", () => {
    const skipped = buildReport(
      info,
      [
        test(
          'skips',
          'skipped',
          record((r) => {
            r.declared = ['list.a'];
          }),
          'not exercised: no second key',
        ),
      ],
      catalog,
      {},
    );
    expect(skipped.checks.find((c) => c.id === 'list.a')).toMatchObject({
      outcome: 'not-exercised',
      notExercised: ['skips: not exercised: no second key'],
    });
    expect(skipped.result).toBe('passed');
  });

  it('never lists a 5xx as a gap (no client can provoke one on purpose), nor operations --only left out', () => {
    const tests = [
      test(
        'lists',
        'passed',
        record((r) => {
          r.coverage.listDocuments = { '200': 1 };
        }),
      ),
    ];
    const documented = { listDocuments: ['200', '400', '500'], getDocument: ['200', '404', '500'] };
    const all = buildReport(info, tests, catalog, documented);
    expect(all.statuses.listDocuments!.neverObserved).toEqual(['400']);
    expect(all.statuses.getDocument!.neverObserved).toEqual(['200', '404']);
    const only = buildReport({ ...info, only: ['list'] }, tests, catalog, documented);
    expect(only.statuses.getDocument!.neverObserved).toEqual([]);
    expect(only.statuses.listDocuments!.neverObserved).toEqual(['400']);
  });

  it('counts the partitions and (operation × state) pairs the tests reached against the universe, naming what they did not', () => {
    const universe = {
      operations: [
        {
          operation: 'getDocument',
          partitions: [
            { name: 'path document_id: value: at minimum', gap: false },
            { name: 'path document_id: value: above maximum', gap: false },
            { name: 'header x: odd', gap: true },
          ],
          states: ['processing', 'completed', 'failed'],
        },
      ],
    };
    const reached = (partitions: string[], states: string[]) =>
      record((r) => {
        r.reach.getDocument = {
          partitions: Object.fromEntries(partitions.map((p) => [p, 1])),
          states: Object.fromEntries(states.map((s) => [s, 1])),
        };
      });
    const built = buildReport(
      info,
      [
        test('a', 'passed', reached(['path document_id: value: at minimum'], ['processing'])),
        test('b', 'passed', reached([], ['completed'])),
      ],
      catalog,
      {},
      universe,
    );
    expect(built.coverage).toMatchObject({
      operations: [
        {
          operation: 'getDocument',
          partitions: { exercised: 1, total: 3, missing: ['path document_id: value: above maximum', `header x: odd${NO_GENERATOR}`] },
          states: { reached: 2, total: 3, missing: ['failed'] },
        },
      ],
    });
    const [op] = built.coverage.operations;
    // A contract-profile run: the full profile's sequences were left out; nothing generates the gap.
    expect(op?.partitions.why?.['path document_id: value: above maximum']?.cause).toBe('left out');
    expect(op?.partitions.why?.[`header x: odd${NO_GENERATOR}`]?.cause).toBe('no generator');
    expect(op?.states.why?.failed?.cause).toBe('left out');
    expect(coveragePercent(built)).toBe(50);
    const lines = coverageLines(built).join('\n');
    expect(lines).toContain('Coverage 50.0%');
    expect(lines).toMatch(/getDocument +partitions 1\/3, states 2\/3/);
    expect(lines).toContain('not exercised (left out): path document_id: value: above maximum');
    expect(lines).toContain('not exercised (no generator): header x: odd (no generator)');
    expect(lines).toContain('not reached (left out): failed');
    expect(lines).toContain("left out: the contract profile: the full profile's sequences (--profile full) send it");
  });

  it('has an empty coverage, and 100%, without a universe (a proxy report)', () => {
    expect(report.coverage).toEqual({ operations: [] });
    expect(coveragePercent(report)).toBe(100);
    expect(coverageLines(report)).toEqual([]);
  });
});
