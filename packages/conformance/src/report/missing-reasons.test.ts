import { describe, expect, it } from 'vitest';
import { createTestRecord, type TestRecord } from '../definitions/records.js';
import { buildReport, type RunInfo, type TestInput } from './report.js';
import { coverageLines } from './summary.js';

// Why a run reached less than the catalogue, as the report says it per partition and state: from the
// run's own facts (its profile, --only, the fixed parts and how their tests ended, a stop, the deployment).

const info: RunInfo = { runId: 'r', profile: 'full', target: 't', spec: 's', strict: false, only: null, startedAt: '', finishedAt: '' };
const universe = {
  operations: [
    {
      operation: 'listDocuments',
      partitions: [
        { name: 'query page: value: at maximum', gap: false },
        { name: "header x-api-key: key: another tenant's key", gap: false },
        { name: 'header x: odd', gap: true },
      ],
      states: ['holding no document'],
      limits: { "header x-api-key: key: another tenant's key": 'no --second-api-key' },
    },
  ],
};

type Fixed = { ended: boolean; state?: TestInput['state']; stopped?: TestRecord['stopped']; failed?: string; note?: string };

function oracleTest({ ended, state = 'passed', stopped, failed, note }: Fixed): TestInput {
  const record = createTestRecord();
  record.fixedPart = { what: "the oracle's fixed sequences", ended };
  if (stopped) record.stopped = stopped;
  if (failed) record.failures.push({ check: failed, operation: 'listDocuments', request: 'GET /', received: 'x', expected: 'y', at: 0 });
  return { file: 'oracle.suite.ts', name: 'oracle', state, errors: [], record, ...(note ? { note } : {}) };
}

function reasons(runInfo: Partial<RunInfo>, tests: TestInput[]) {
  const report = buildReport({ ...info, ...runInfo }, tests, [], {}, universe);
  const op = report.coverage.operations[0]!;
  return { report, why: { ...op.partitions.why, ...op.states.why } };
}

describe('the reason for each partition and state a run did not reach', () => {
  it.each([
    { run: 'every fixed part ended', info: {}, tests: [oracleTest({ ended: true })], cause: 'a budget', says: '--oracle-time-ms' },
    {
      run: 'the deadline cut a fixed part',
      info: {},
      tests: [
        oracleTest({
          ended: false,
          state: 'skipped',
          stopped: { reason: 'deadline', message: 'the run reached its deadline (--max-run-s)' },
        }),
      ],
      cause: 'target too slow',
      says: "the oracle's fixed sequences had not ended when --max-run-s came",
    },
    {
      run: 'the target became unavailable during a fixed part',
      info: {},
      tests: [oracleTest({ ended: false, state: 'skipped', stopped: { reason: 'unavailable', message: 'only 503s for 60 s' } })],
      cause: 'run stopped',
      says: 'only 503s for 60 s',
    },
    {
      run: 'a fixed part stopped at a failure',
      info: {},
      tests: [oracleTest({ ended: false, state: 'failed', failed: 'oracle.list' })],
      cause: 'a failure',
      says: 'stopped at its first failure (oracle.list)',
    },
    {
      run: 'a fixed part was skipped',
      info: {},
      tests: [oracleTest({ ended: false, state: 'skipped', note: 'not exercised: --spec decides other values' })],
      cause: 'left out',
      says: '--spec decides other values',
    },
    { run: '--only left the sequences out', info: { only: ['list'] }, tests: [], cause: 'left out', says: 'left out model and oracle' },
    { run: 'the contract profile', info: { profile: 'contract' as const }, tests: [], cause: 'left out', says: '--profile full' },
    {
      run: 'another scenario hit the deadline after the fixed parts ended',
      info: {},
      tests: [
        oracleTest({ ended: true }),
        {
          ...oracleTest({ ended: true }),
          record: { ...createTestRecord(), stopped: { reason: 'deadline' as const, message: 'deadline' } },
        },
      ],
      cause: 'target too slow',
      says: 'the scenarios had not ended',
    },
  ])('$run: $cause', ({ info: runInfo, tests, cause, says }) => {
    const { why, report } = reasons(runInfo, tests);
    for (const name of ['query page: value: at maximum', 'holding no document']) {
      expect(why[name]?.cause, name).toBe(cause);
      expect(why[name]?.detail, name).toContain(says);
    }
    expect(coverageLines(report).join('\n')).toContain(`${cause}: `);
  });

  it("names the deployment's limit and a gap whatever else happened", () => {
    const { why } = reasons({}, [oracleTest({ ended: true })]);
    expect(why["header x-api-key: key: another tenant's key"]).toEqual({ cause: 'a deployment limit', detail: 'no --second-api-key' });
    expect(why['header x: odd (no generator)']?.cause).toBe('no generator');
  });

  it("says a target whose runs end before the first read kept a run's end read after a read while it ran out of reach", () => {
    const reads = {
      operations: [{ operation: 'getDocument', partitions: [], states: ['processing', 'its run ended since a read showed it processing'] }],
    };
    const test = oracleTest({ ended: true });
    test.record!.reach.getDocument = { partitions: {}, states: { processing: 1 } };
    const op = buildReport(info, [test], [], {}, reads).coverage.operations[0]!;
    expect(op.states.why?.['its run ended since a read showed it processing']).toMatchObject({
      cause: 'a deployment limit',
      detail: expect.stringContaining("the target ends its runs before the suite's first read"),
    });
  });

  it('gives no reasons when everything was reached', () => {
    const record = createTestRecord();
    record.reach.listDocuments = {
      partitions: Object.fromEntries(universe.operations[0]!.partitions.map((p) => [p.name, 1])),
      states: { 'holding no document': 1 },
    };
    const report = buildReport(info, [{ file: 'f', name: 'n', state: 'passed', errors: [], record }], [], {}, universe);
    expect(report.coverage.operations[0]).not.toHaveProperty('partitions.why');
    expect(coverageLines(report).join('\n')).not.toContain('Why not reached');
  });
});
