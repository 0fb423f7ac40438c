import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Contract } from '@docproc-kit/contract/load-contract.js';
import { toHar } from '@docproc-kit/reference/journal/har.js';
import { catalogFor } from '../checks/index.js';
import { writeJunit } from '../report/junit.js';
import { buildReport, type ConformanceReport } from '../report/report.js';
import type { ObservedSummary, ViolationStore } from './violation-store.js';

/** The files a proxy's report is written to. */
export interface ReportFiles {
  json: string;
  junit: string;
  har: string;
}

/** `reports/proxy.json` → that file, `reports/proxy.xml` (JUnit) and `reports/proxy.har`. */
export function reportFiles(file: string): ReportFiles {
  const stem = file.replace(/\.json$/i, '');
  return { json: file, junit: `${stem}.xml`, har: `${stem}.har` };
}

/**
 * The traffic seen so far as the suite's JSON report: one test, "live traffic", whose record holds every
 * check's counts and the newest violations.
 * @example proxyReport(store, { contract, target, spec, strict: false, startedAt })
 */
export function proxyReport(
  store: ViolationStore,
  { contract, target, spec, strict, startedAt }: { contract: Contract; target: string; spec: string; strict: boolean; startedAt: string },
): ConformanceReport {
  const record = store.testRecord();
  record.declared = Object.keys(record.counts);
  const documented = Object.fromEntries(contract.operations.map((op) => [op.operationId, Object.keys(op.definition.responses ?? {})]));
  const report = buildReport(
    {
      runId: `proxy-${startedAt}`,
      profile: 'full',
      target,
      spec,
      strict,
      only: null,
      ...(contract.document.info?.version ? { contractVersion: contract.document.info.version } : {}),
      startedAt,
      finishedAt: new Date().toISOString(),
    },
    [
      {
        file: 'docproc proxy',
        name: 'live traffic through docproc proxy',
        state: store.total > 0 ? 'failed' : 'passed',
        record,
        errors: [],
      },
    ],
    catalogFor(contract),
    documented,
  );
  return { ...report, tool: 'docproc proxy' };
}

/** The violating exchanges as a HAR 1.2 log: no headers and no bodies, so no key and no file's bytes. */
export function violationsHar(store: ViolationStore, target: string) {
  const exchanges = store.violatingExchanges();
  const har = toHar(
    exchanges.map((e) => e.entry),
    target.replace(/\/+$/, ''),
  );
  return {
    log: {
      ...har.log,
      creator: { name: 'docproc proxy', version: '1' },
      entries: har.log.entries.map((entry, i) => ({ ...entry, _violations: exchanges[i]!.violations })),
    },
  };
}

/** Writes the JSON report, the JUnit XML and the HAR; returns the report. */
export function writeProxyReport(files: ReportFiles, report: ConformanceReport, har: unknown): void {
  mkdirSync(dirname(files.json), { recursive: true });
  writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
  writeJunit(report, files.junit);
  writeFileSync(files.har, `${JSON.stringify(har, null, 2)}\n`);
}

/** The proxy's counts, as the top of its report's page shows them. */
export function proxyFacts(summary: ObservedSummary): Array<[string, string]> {
  const e = summary.exchanges;
  const v = summary.violations;
  return [
    [
      'Exchanges',
      `${e.total} seen, ${e.judged} judged, ${e.transient} transient (not judged), ${e.notJudged} not judged, ${e.bodyNotJudged} judged without their body`,
    ],
    ['Violations', `${v.total}: ${v.service} by the service, ${v.client} by clients (the newest ${v.kept} kept)`],
  ];
}
