import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Check } from '../checks/index.js';
import { createTestRecord } from '../definitions/records.js';
import { writeJunit } from './junit.js';
import { buildReport, type RunInfo } from './report.js';

const dir = mkdtempSync(join(tmpdir(), 'junit-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const catalog: Check[] = ['list.a', 'get.b'].map((id) => ({
  id,
  profile: 'contract',
  area: id.split('.')[0] as Check['area'],
  description: '',
  rules: [],
}));

// Two runs of the same suite: each has its run id and start time; one scenario of each crashed.
function junitOf(runId: string, startedAt: string): string {
  const info: RunInfo = { runId, profile: 'contract', target: 't', spec: 's', strict: false, only: null, startedAt, finishedAt: startedAt };
  const record = createTestRecord();
  record.declared = ['list.a'];
  record.counts['list.a'] = { passed: 1, failed: 0, warnings: 0 };
  const report = buildReport(
    info,
    [
      { file: 'list.suite.ts', name: 'lists > a page', state: 'passed', errors: [], record },
      { file: 'get.suite.ts', name: 'reads > one document', state: 'failed', errors: ['boom'] },
    ],
    catalog,
    {},
  );
  const file = join(dir, `${runId}.xml`);
  writeJunit(report, file);
  return readFileSync(file, 'utf8');
}

const names = (xml: string, element: string) => [...xml.matchAll(new RegExp(`<${element} [^>]*name="([^"]+)"`, 'g'))].map((m) => m[1]);

describe('JUnit names', () => {
  const first = junitOf('20250101t000000-aaaaaa', '2025-01-01T00:00:00.000Z');
  const second = junitOf('20250102t000000-bbbbbb', '2025-01-02T00:00:00.000Z');

  it('are the same from run to run, suites and cases alike, so CI keeps one history per check', () => {
    expect(names(first, 'testsuite')).toEqual([
      'docproc conformance: list',
      'docproc conformance: get',
      'docproc conformance: crashed scenarios',
    ]);
    expect(names(second, 'testsuite')).toEqual(names(first, 'testsuite'));
    expect(names(second, 'testcase')).toEqual(names(first, 'testcase'));
    expect(names(first, 'testcase')).toEqual(['list.a', 'get.b', 'reads > one document']);
  });

  it('never carry the run id anywhere in the file', () => {
    expect(first).not.toContain('aaaaaa');
    expect(second).not.toContain('bbbbbb');
  });
});

describe('JUnit text a target wrote', () => {
  it('is escaped, and what XML cannot hold at all (a NUL) is replaced, so CI tools can read the file', () => {
    const info: RunInfo = {
      runId: 'r',
      profile: 'contract',
      target: 't',
      spec: 's',
      strict: false,
      only: null,
      startedAt: 'x',
      finishedAt: 'x',
    };
    const record = createTestRecord();
    record.declared = ['list.a'];
    const received = '200 application/json {"name":"a\u0000b <script>&amp;"}';
    record.failures.push({ check: 'list.a', operation: 'listDocuments', request: 'GET /', received, expected: 'no NUL', at: 0 });
    record.counts['list.a'] = { passed: 0, failed: 1, warnings: 0 };
    const file = join(dir, 'hostile.xml');
    writeJunit(buildReport(info, [{ file: 'f', name: 'lists', state: 'failed', errors: ['list.a failed'], record }], catalog, {}), file);
    const xml = readFileSync(file, 'utf8');
    expect(xml).not.toContain('\u0000');
    expect(xml).toContain('a\uFFFDb &lt;script>&amp;amp;');
    expect(xml).toMatch(/<testsuites tests="2" failures="1" errors="0" skipped="1">/);
  });
});
