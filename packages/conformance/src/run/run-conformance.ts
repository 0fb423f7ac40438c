import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import {
  type ConformanceOptions,
  type ConformanceSuiteConfig,
  EXIT,
  MODEL_DEFAULTS,
  ORACLE_DEFAULTS,
  RUN_DEFAULTS,
  THOROUGH,
  UsageError,
} from '../definitions/config.js';
import { coveragePercent } from '../report/report.js';
import { createReporter } from '../report/reporter.js';
import { contractFacts } from '../rules/contract-facts.js';
import { createDispatcher } from '../transport/dispatcher.js';
import { type Liveness, readStopMark } from '../transport/transient.js';
import { bodyCapFor } from '../transport/transport.js';
import { normaliseBaseUrl, preflight } from './preflight.js';
import { createRunContext } from './run-context.js';
import { runFiles } from './run-files.js';
import { scenarioFiles } from './scenario-files.js';
import { createTransportSettings } from './transport-options.js';

// The package's root folder: this file is src/run/ (or dist/run/) below it.
const conformanceRoot = fileURLToPath(new URL('../../', import.meta.url));
/** A run id that sorts by time and never repeats: `20250102t030405-k3f9q2`. */
export function createRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, '')
    .toLowerCase();
  return `${stamp}-${randomBytes(4).toString('hex').slice(0, 6)}`;
}

/** Where the suite's progress, failures and summary go (the process's own streams by default). */
export interface ConformanceOutput {
  stdout: Writable;
  stderr: Writable;
}

/**
 * Runs the suite in this process and resolves to the exit code; throws {@link UsageError} for bad usage or
 * an unreachable target.
 * @example process.exitCode = await runConformance({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'docproc-dev-key', profile: 'full', ... });
 */
export async function runConformance(
  options: ConformanceOptions,
  output?: ConformanceOutput,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const givenBaseUrl = normaliseBaseUrl(options.baseUrl);
  const { settings: transport, warnings } = createTransportSettings(options, env);
  const warn = (line: string) => (output?.stderr ?? process.stderr).write(`${line}\n`);
  for (const warning of warnings) warn(warning);
  const spec = /^https?:\/\//.test(options.spec) ? options.spec : resolve(options.spec);
  let listPath: string;
  let documented: Record<string, string[]>;
  let contractDocument: OpenAPIV3_1.Document;
  let contractMaxFileBytes: number | undefined;
  try {
    const contract = await loadContract(spec);
    contractDocument = contract.document;
    contractMaxFileBytes = contractFacts(contract).uploadLimits.maxFileBytes;
    const list = contract.operations.find((o) => o.method === 'get' && !o.path.includes('{'));
    if (!list) throw new Error('it has no GET operation without path parameters to probe the target with');
    listPath = list.path;
    documented = Object.fromEntries(contract.operations.map((op) => [op.operationId, Object.keys(op.definition.responses ?? {})]));
  } catch (error) {
    throw new UsageError(`cannot use --spec ${spec}: ${(error as Error).message}`);
  }
  if (options.secondApiKey !== undefined && options.secondApiKey === options.apiKey) {
    throw new UsageError('--second-api-key is the same key as --api-key: the tenancy checks need the key of another tenant');
  }
  // The deadline counts from the start, preflight included: a run never takes longer than --max-run-s.
  const deadlineAt = Date.now() + 1000 * (options.maxRunS ?? RUN_DEFAULTS.maxRunS);
  const maxWaitMs = 1000 * (options.maxWaitS ?? RUN_DEFAULTS.maxWaitS);
  const maxBodyBytes = options.maxBodyBytes ?? bodyCapFor(options.maxFileBytes ?? contractMaxFileBytes);
  const limits = { timeoutMs: options.requestTimeoutMs, maxWaitMs, maxBodyBytes, deadlineAt };
  const reach = { dispatcher: createDispatcher(transport), settings: transport };
  let baseUrl: string;
  let liveness: Liveness;
  try {
    const reached = await preflight(givenBaseUrl, options.apiKey, listPath, limits, reach);
    if (reached.warning) warn(reached.warning);
    baseUrl = reached.baseUrl;
    liveness = reached.liveness;
    // A target that did not answer the first probe in time is left to the run to judge, at once.
    if (options.secondApiKey !== undefined && liveness.answered > 0)
      await preflight(baseUrl, options.secondApiKey, listPath, limits, reach);
  } finally {
    await reach.dispatcher.close();
  }

  const runId = createRunId();
  const seed = options.seed ?? randomInt(2 ** 31);
  const thorough = options.thorough === true;
  const modelTimeMs = options.modelTimeMs ?? (thorough ? THOROUGH.modelTimeMs : MODEL_DEFAULTS.timeMs);
  const reportFile = options.report ? resolve(options.report) : null;
  // Beside the report when there is one, so a CI artifact of the report's folder holds the reproducers'
  // bodies; they name it relative to that folder, so the artifact replays as is wherever it is unpacked.
  const reproDir = join(reportFile ? dirname(reportFile) : tmpdir(), `docproc-conformance-${runId}`);
  const config: ConformanceSuiteConfig = {
    baseUrl,
    apiKey: options.apiKey,
    profile: options.profile,
    spec,
    timeoutMs: options.timeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
    strict: options.strict,
    runId,
    seed,
    modelRuns: options.modelRuns ?? (thorough ? THOROUGH.runs : MODEL_DEFAULTS.runs),
    modelTimeMs,
    oracleRuns: options.oracleRuns ?? (thorough ? THOROUGH.runs : ORACLE_DEFAULTS.runs),
    oracleTimeMs: options.oracleTimeMs ?? (thorough ? THOROUGH.oracleTimeMs : ORACLE_DEFAULTS.timeMs),
    clockSkewMs: options.clockSkewMs ?? RUN_DEFAULTS.clockSkewMs,
    contractDocument,
    reproDir,
    reproShownAs: reportFile ? basename(reproDir) : reproDir,
    transport,
    workers: options.workers ?? 2,
    maxWaitMs,
    maxBodyBytes,
    deadlineAt,
    liveness,
    maxUnanswered: options.maxUnanswered ?? RUN_DEFAULTS.maxUnanswered,
    stateDir: mkdtempSync(join(tmpdir(), `docproc-conformance-${runId}-state-`)),
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    ...(options.secondApiKey !== undefined ? { secondApiKey: options.secondApiKey } : {}),
    ...(options.maxFiles !== undefined ? { maxFiles: options.maxFiles } : {}),
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
  };
  const reporter = createReporter(
    {
      runId,
      seed,
      profile: options.profile,
      target: baseUrl,
      spec,
      strict: options.strict,
      only: options.only ?? null,
      ...(transport.insecure ? { insecure: true } : {}),
      ...(contractDocument.info?.version ? { contractVersion: contractDocument.info.version } : {}),
      reportFile,
      junitFile: options.junit ? resolve(options.junit) : null,
      htmlFile: options.html ? resolve(options.html) : null,
      documented,
      contractDocument,
      secondTenant: options.secondApiKey !== undefined,
      uploadLimits: {
        ...(options.maxFiles !== undefined ? { maxFiles: options.maxFiles } : {}),
        ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
      },
    },
    output?.stdout ?? process.stdout,
  );
  reporter.start();
  const run = createRunContext(config);
  let results: Awaited<ReturnType<typeof runFiles>>;
  try {
    results = await runFiles({
      files: scenarioFiles(options.only),
      context: run.context,
      workers: config.workers,
      root: conformanceRoot,
      // Every request (and every wait between them) ends by the run's deadline, after which a scenario
      // stops at its next request: a scenario needs no bound of its own but the deadline and a margin.
      timeoutMs: () => Math.max(1000, deadlineAt - Date.now()) + 15_000,
      onFileEnd: (file) => reporter.fileEnded(file),
    });
  } finally {
    await run.close();
  }
  const report = reporter.end(results.files, results.unhandled);
  // Keep the folder only when reproducers wrote request bodies into it.
  try {
    rmdirSync(config.reproDir);
  } catch {
    // not empty (reproducer bodies) or never made
  }
  const stopMark = readStopMark(config.stateDir);
  rmSync(config.stateDir, { recursive: true, force: true });
  // A target that answered only "not now" has not been judged: exit 2, never 1, whatever failed before.
  if (stopMark?.reason === 'unavailable') throw new UsageError(stopMark.message);
  const failed = report.result === 'failed';
  const reached = coveragePercent(report);
  if (options.minCoverage !== undefined && reached < options.minCoverage) {
    // Its own line, not a check: the target is not at fault when the suite reached too little of the contract.
    (output?.stdout ?? process.stdout).write(
      ` docproc conformance  coverage ${reached.toFixed(1)}% is below --min-coverage ${options.minCoverage}%: exit ${EXIT.failed}\n`,
    );
    return EXIT.failed;
  }
  if (report.stopped?.reason === 'deadline' && !failed)
    throw new UsageError(`the run reached --max-run-s before every check ran, with no failure so far; the report has what it had`);
  return failed ? EXIT.failed : EXIT.passed;
}
