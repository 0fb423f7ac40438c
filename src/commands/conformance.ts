import { randomBytes } from 'node:crypto';
import { rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadContract } from '../contract/contract.js';
import { bundledSpecPath, packageRoot } from '../paths.js';
import { SCENARIO_AREAS } from './conformance-areas.js';
import { integerOption } from './option-parsers.js';

/** The areas of the suite (`conformance/scenarios/<area>[-*].suite.ts`), selectable with `--only`. */
export const CONFORMANCE_AREAS = SCENARIO_AREAS;

/** The parsed options of `docproc conformance`. */
export interface ConformanceOptions {
  baseUrl: string;
  apiKey: string;
  secondApiKey?: string;
  profile: 'contract' | 'full';
  /** Absolute path or URL of the contract the target is judged against. */
  spec: string;
  /** How long a document may take to leave `processing`. */
  timeoutMs: number;
  /** How long one request may take. */
  requestTimeoutMs: number;
  maxFiles?: number;
  maxFileBytes?: number;
  junit?: string;
  report?: string;
  strict: boolean;
  only?: string[];
  /** Scenario files run at once (the suite's vitest config decides when absent: 2). */
  workers?: number;
}

/** What the CLI hands to the suite's test files (through vitest's `provide`): the options that judge the target, and the run's names. */
export type ConformanceSuiteConfig = Omit<ConformanceOptions, 'junit' | 'report' | 'only' | 'workers'> & {
  /** Names everything the run creates: `conformance-<runId>-...`. */
  runId: string;
  /** Where curl reproducers put request bodies. */
  reproDir: string;
  /**
   * The contract of `spec`, validated and dereferenced once by the CLI: workers judge against exactly this
   * document (a --spec URL is fetched once) and never load it again.
   */
  contractDocument: OpenAPIV3_1.Document;
};

/** Exit codes: every check passed, a check failed, bad usage or an unreachable target. */
export const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

/** Thrown for bad usage or an unusable target: printed as one clear message, exit code 2. */
export class UsageError extends Error {}

function areaList(value: string): string[] {
  const areas = value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const unknown = areas.filter((a) => !(CONFORMANCE_AREAS as readonly string[]).includes(a));
  if (unknown.length || areas.length === 0) throw new InvalidArgumentError(`expected some of ${CONFORMANCE_AREAS.join(', ')}`);
  return areas;
}

/** Reads a boolean environment variable: true/1/yes or false/0/no/empty (case-insensitive). */
export function envFlag(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (['', '0', 'false', 'no'].includes(value)) return false;
  if (['1', 'true', 'yes'].includes(value)) return true;
  throw new UsageError(`${name} must be true or false, not ${JSON.stringify(env[name])}`);
}

/** A run id that sorts by time and never repeats: `20250102t030405-k3f9q2`. */
export function createRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, '')
    .toLowerCase();
  return `${stamp}-${randomBytes(4).toString('hex').slice(0, 6)}`;
}

/** Checks the base URL: http(s), and without the `/api/v1` the contract's paths already carry. */
export function normaliseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url ${JSON.stringify(value)} is not a URL (example: https://docs.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be http or https, not ${url.protocol}`);
  if (/\/api\/v1\/?$/.test(url.pathname)) {
    throw new UsageError(
      `--base-url is the service's base_url without /api/v1 (the contract's paths carry it): try ${url.origin}${url.pathname.replace(/\/api\/v1\/?$/, '')}`,
    );
  }
  if (url.search || url.hash) throw new UsageError('--base-url must not have a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Asks the target for one list page: unreachable targets and refused keys are usage errors, not failed checks. */
export async function preflight(baseUrl: string, apiKey: string, listPath: string, timeoutMs: number): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${listPath}?limit=1`, {
      headers: { 'x-api-key': apiKey },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    await response.arrayBuffer();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new UsageError(
      `cannot reach ${baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message} (is --base-url right and the service up?)`,
    );
  }
  if (response.status === 401) throw new UsageError(`${baseUrl} refused --api-key (401 on GET ${listPath}); check the key`);
}

/** Where the suite's progress, failures and summary go (the process's own streams by default). */
export interface ConformanceOutput {
  stdout: Writable;
  stderr: Writable;
}

/**
 * Runs the suite with vitest's node API and resolves to the exit code; throws {@link UsageError} for bad
 * usage or an unreachable target. Leaves `process.exitCode` as it found it.
 * @example process.exitCode = await runConformance({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'docproc-dev-key', profile: 'full', ... });
 */
export async function runConformance(options: ConformanceOptions, output?: ConformanceOutput): Promise<number> {
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const spec = /^https?:\/\//.test(options.spec) ? options.spec : resolve(options.spec);
  let listPath: string;
  let documented: Record<string, string[]>;
  let contractDocument: OpenAPIV3_1.Document;
  try {
    const contract = await loadContract(spec);
    contractDocument = contract.document;
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
  await preflight(baseUrl, options.apiKey, listPath, options.requestTimeoutMs);
  if (options.secondApiKey !== undefined) await preflight(baseUrl, options.secondApiKey, listPath, options.requestTimeoutMs);

  const runId = createRunId();
  const reportFile = options.report ? resolve(options.report) : null;
  const config: ConformanceSuiteConfig = {
    baseUrl,
    apiKey: options.apiKey,
    profile: options.profile,
    spec,
    timeoutMs: options.timeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
    strict: options.strict,
    runId,
    contractDocument,
    // Beside the report when there is one, so a CI artifact of the report's folder holds the reproducers' bodies.
    reproDir: join(reportFile ? dirname(reportFile) : tmpdir(), `docproc-conformance-${runId}`),
    ...(options.secondApiKey !== undefined ? { secondApiKey: options.secondApiKey } : {}),
    ...(options.maxFiles !== undefined ? { maxFiles: options.maxFiles } : {}),
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
  };
  // The reporter runs in this process and hands its report back through this callback: no temp file.
  let report: { result: 'passed' | 'failed' } | undefined;
  const reporterOptions = {
    runId,
    profile: options.profile,
    target: baseUrl,
    spec,
    strict: options.strict,
    only: options.only ?? null,
    reportFile,
    junitFile: options.junit ? resolve(options.junit) : null,
    documented,
    onReport: (r: typeof report) => {
      report = r;
    },
  };

  // `list` selects list.suite.ts and list-filters.suite.ts alike.
  const filters = (options.only ?? []).map((area) => `conformance/scenarios/${area}`);
  const { startVitest } = await import('vitest/node');
  const exitCodeBefore = process.exitCode;
  const vitest = await startVitest(
    'test',
    filters,
    {
      config: join(packageRoot, 'conformance/vitest.config.ts'),
      root: packageRoot,
      watch: false,
      // The suite's own reporter is the only one: it prints each failure once, in time linear in its size.
      reporters: [[join(packageRoot, 'conformance/report/reporter.ts'), reporterOptions]],
      provide: { docprocConformance: config },
      // Polling waits up to timeoutMs, twice in the retry scenarios; a hung request ends at requestTimeoutMs.
      testTimeout: 3 * options.timeoutMs + 6 * options.requestTimeoutMs,
      hookTimeout: 2 * options.requestTimeoutMs,
      ...(options.workers !== undefined ? { maxWorkers: options.workers, minWorkers: 1 } : {}),
    },
    {},
    output ?? {},
  );
  // Keep the folder only when reproducers wrote request bodies into it.
  try {
    rmdirSync(config.reproDir);
  } catch {
    // not empty (reproducer bodies) or never made
  }
  const files = vitest.state.getFiles();
  const failed =
    !report ||
    report.result === 'failed' ||
    files.length === 0 ||
    files.some((f) => f.result?.state === 'fail') ||
    vitest.state.getUnhandledErrors().length > 0;
  await vitest.close();
  // vitest sets process.exitCode itself; the verdict is this function's return value.
  process.exitCode = exitCodeBefore;
  return failed ? EXIT.failed : EXIT.passed;
}

/** `docproc conformance`: judges a deployment (or a mock) against the contract. */
export function conformanceCommand(): Command {
  const env = (name: string) => `DOCPROC_${name}`;
  return (
    new Command('conformance')
      .description(
        'Run the conformance suite against a deployment: exit 0 when every check passed, 1 when one failed, 2 on bad usage or an unreachable target.',
      )
      .addOption(
        new Option('--base-url <url>', "the service's base_url, as in the contract's servers (without /api/v1)")
          .env(env('BASE_URL'))
          .makeOptionMandatory(),
      )
      .addOption(new Option('--api-key <key>', 'API key the suite uploads and reads with').env(env('API_KEY')).makeOptionMandatory())
      .addOption(
        new Option('--second-api-key <key>', "another tenant's key: enables the tenant-isolation checks").env(env('SECOND_API_KEY')),
      )
      .addOption(
        new Option('--profile <profile>', 'contract: stateless-safe, passes against a mock; full: adds stateful behaviour')
          .choices(['full', 'contract'])
          .env(env('PROFILE'))
          .default('full'),
      )
      .addOption(
        new Option('--spec <path-or-url>', 'the contract to judge against')
          .env(env('SPEC'))
          .default(bundledSpecPath, 'the bundled openapi/openapi.yaml'),
      )
      .addOption(
        new Option('--timeout-ms <n>', 'how long a document may take to finish processing')
          .env(env('TIMEOUT_MS'))
          .argParser(integerOption(1))
          .default(60_000),
      )
      .addOption(
        new Option('--request-timeout-ms <n>', 'how long one request may take')
          .env(env('REQUEST_TIMEOUT_MS'))
          .argParser(integerOption(1))
          .default(30_000),
      )
      .addOption(
        new Option('--max-files <n>', "the deployment's files-per-upload limit: enables the 413 too_many_files check")
          .env(env('MAX_FILES'))
          .argParser(integerOption(1)),
      )
      .addOption(
        new Option('--max-file-bytes <n>', "the deployment's per-file size limit: enables the 413 file_too_large check")
          .env(env('MAX_FILE_BYTES'))
          .argParser(integerOption(1)),
      )
      .addOption(new Option('--junit <file>', 'write JUnit XML here').env(env('JUNIT')))
      .addOption(new Option('--report <file>', 'write the JSON report (every check, coverage matrix) here').env(env('REPORT')))
      // Not .env(): commander turns a boolean on for any value, and DOCPROC_STRICT=false must mean false.
      .addOption(
        new Option('--strict', 'undocumented response properties fail instead of warning (env: DOCPROC_STRICT=true|false)').default(false),
      )
      .addOption(
        new Option('--only <areas>', `run only these comma-separated areas: ${CONFORMANCE_AREAS.join(', ')}`)
          .env(env('ONLY'))
          .argParser(areaList),
      )
      .addOption(
        new Option('--workers <n>', 'scenario files run at once (default: 2); 1 for a deployment that must see one client at a time')
          .env(env('WORKERS'))
          .argParser(integerOption(1, 16)),
      )
      // Commander exits 1 on bad usage; CI scripts must tell "the server is broken" (1) from "the call was wrong" (2).
      .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT.usage))
      .action(async (options: ConformanceOptions) => {
        try {
          options.strict ||= envFlag('DOCPROC_STRICT');
          process.exitCode = await runConformance(options);
        } catch (error) {
          if (!(error instanceof UsageError)) throw error;
          process.stderr.write(`docproc conformance: ${error.message}\n`);
          process.exitCode = EXIT.usage;
        }
        // vitest can leave a worker handle open for a moment; never let CI hang on it.
        setTimeout(() => process.exit(), 10_000).unref();
      })
  );
}
