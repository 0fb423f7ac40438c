/**
 * `--behaviour`: BASE's old promises against a deployment of HEAD. BASE's conformance suite (the suite
 * judging against BASE's contract, as `docproc conformance --spec BASE` does) is run against the
 * deployment, each failed check an old promise the new service breaks; and BASE's client types are
 * compiled against HEAD's (type-compat.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { type ConformanceOptions, RUN_DEFAULTS, runConformance } from '@docproc-kit/conformance';
import type { ContractSource } from './contract-source.js';
import { type TypeFailure, typeFailures } from './type-compat.js';

/** What `--behaviour` passes to the suite: the target and how much of the suite to run. */
export type BehaviourOptions = Pick<ConformanceOptions, 'baseUrl' | 'apiKey' | 'profile'> &
  Partial<Pick<ConformanceOptions, 'secondApiKey' | 'only' | 'maxFiles' | 'maxFileBytes' | 'maxRunS'>>;

/** An old promise the new service breaks: a check of BASE's suite that failed, and how. */
export interface BrokenPromise {
  id: string;
  description: string;
  /** One line per failure: the request, what came back and what BASE promised. */
  failures: string[];
}

/** What the behavioural run found. */
export interface BehaviourReport {
  baseUrl: string;
  /** The suite's exit code (0 passed, 1 a check failed). */
  suiteExit: number;
  brokenPromises: BrokenPromise[];
  /** Suite failures no check claimed (a crashed scenario): they break the run too. */
  unattributed: string[];
  typeFailures: TypeFailure[];
}

/** A received body can be kilobytes: the suite's own report (and `--report`) keeps all of it. */
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

/** The part of the suite's JSON report read here. */
interface SuiteReport {
  checks: Array<{
    id: string;
    description: string;
    outcome: string;
    failures: Array<{ operation: string; request: string; received: string; expected: string }>;
  }>;
  unattributed: Array<{ test: string; error: string }>;
}

/**
 * Runs BASE's suite against `options.baseUrl` (its progress written to `progress`) and compiles BASE's
 * client types against HEAD's. Throws the suite's UsageError for an unreachable target.
 * @example await behaviourReport(base, head, { baseUrl, apiKey, profile: 'contract' }, process.stderr)
 */
export async function behaviourReport(
  base: ContractSource,
  head: ContractSource,
  options: BehaviourOptions,
  progress: Writable,
): Promise<BehaviourReport> {
  const dir = mkdtempSync(join(tmpdir(), 'docproc-contract-behaviour-'));
  try {
    const reportFile = join(dir, 'report.json');
    const suiteExit = await runConformance(
      {
        timeoutMs: 60_000,
        requestTimeoutMs: 30_000,
        strict: false,
        maxWaitS: RUN_DEFAULTS.maxWaitS,
        ...options,
        spec: base.path,
        report: reportFile,
      },
      { stdout: progress, stderr: progress },
    );
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as SuiteReport;
    const brokenPromises = report.checks
      .filter((c) => c.outcome === 'failed')
      .map((c) => ({
        id: c.id,
        description: c.description,
        failures: c.failures.map((f) => `${f.request}: received ${clip(f.received)}; BASE promised ${clip(f.expected)}`),
      }));
    return {
      baseUrl: options.baseUrl,
      suiteExit,
      brokenPromises,
      unattributed: report.unattributed.map((u) => `${u.test}: ${u.error.split('\n')[0]}`),
      typeFailures: await typeFailures(base.path, base.contract.document, head.path),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How many ways the behavioural run found BASE's clients broken (any makes the exit 1). */
export function behaviourBreaks(report: BehaviourReport): number {
  return report.brokenPromises.length + report.unattributed.length + report.typeFailures.length;
}
