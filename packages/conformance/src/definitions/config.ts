import type { OpenAPIV3_1 } from 'openapi-types';
import type { TransportSettings } from './transport-settings.js';

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
  /** Where to write the report as one self-contained HTML page. */
  html?: string;
  strict: boolean;
  only?: string[];
  /** Scenario files run at once (default 2). */
  workers?: number;
  /** Seeds the random sequences of the model run (a random one, printed, when absent). */
  seed?: number;
  /** How many random sequences the model run tries at most (default {@link MODEL_DEFAULTS}). */
  modelRuns?: number;
  /** How long the model run starts new sequences for, in ms (default {@link MODEL_DEFAULTS}). */
  modelTimeMs?: number;
  /** How many random sequences the differential run (the reference core as an oracle) tries at most (default {@link ORACLE_DEFAULTS}). */
  oracleRuns?: number;
  /** How long the differential run starts new sequences for, in ms (default {@link ORACLE_DEFAULTS}). */
  oracleTimeMs?: number;
  /** The nightly budget ({@link THOROUGH}): the model and differential runs go on for minutes, not seconds. */
  thorough?: boolean;
  /** PEM file of the CA (or certificates) that signed the target's TLS certificate, trusted besides Node's own. */
  caFile?: string;
  /** Accept any TLS certificate (a self-signed staging certificate), with a warning. */
  insecure?: boolean;
  /** `Name: value` headers a gateway in front needs on every request (never printed). */
  header?: string[];
  /**
   * How long, in seconds, one request may keep getting transient answers (429, 503, a gateway's 502/504)
   * before the target is called unavailable and the run ends with exit 2 (default {@link RUN_DEFAULTS}).
   */
  maxWaitS?: number;
  /** The run's deadline in seconds: then it stops and reports what it has (default {@link RUN_DEFAULTS}). */
  maxRunS?: number;
  /**
   * How many requests in a row (in the order they ended) may get no complete answer within the request
   * timeout before the target is taken for one that stopped answering and the run ends with exit 2 (default {@link RUN_DEFAULTS}).
   */
  maxUnanswered?: number;
  /** Requests per second across the run's workers, or `auto`: slow down on each 429 (default: unpaced). */
  rateLimit?: number | 'auto';
  /** The most bytes of one decoded response body the suite reads (default: derived, see `bodyCapFor`). */
  maxBodyBytes?: number;
  /** The least coverage (percent of input partitions and document states reached) a run must reach, or it fails. */
  minCoverage?: number;
  /** How far the target's clock may be from the suite's, in ms, when its timestamps are compared with the suite's clock (default {@link RUN_DEFAULTS}). */
  clockSkewMs?: number;
}

/**
 * Defaults fitted to CI: a gateway's Retry-After is seconds to a minute (a deployment restarting), and a
 * full run against a slow staging service takes minutes, so ten is a hung target, not a slow one. Clocks
 * kept by NTP agree within milliseconds; a minute leaves room for one that is not, and still shows a
 * timestamp written in local time as UTC (every zone is 15 minutes or more from UTC, or is UTC). Five
 * requests in a row without a complete answer, after the target has answered, is a target that stopped
 * (its database hung behind a healthy gateway), not one slow request: with two workers, about three
 * request timeouts.
 */
export const RUN_DEFAULTS = { maxWaitS: 60, maxRunS: 600, clockSkewMs: 60_000, maxUnanswered: 5 } as const;

/**
 * The model run's default bounds on its random sequences, whichever is reached first; its fixed walk
 * (about 7 s against 1.5 s runs) comes first and is never bounded by them.
 */
export const MODEL_DEFAULTS = { runs: 50, timeMs: 12_000 } as const;

/**
 * The differential run's default bounds on its random sequences; its fixed sequences (about 5 s against
 * 1.5 s runs) come first. It runs beside the model run, so the full profile stays under a minute.
 */
export const ORACLE_DEFAULTS = { runs: 1000, timeMs: 6_000 } as const;

/** `--thorough`: the bounds of a nightly run (explicit --model-* and --oracle-* options still win). */
export const THOROUGH = { runs: 100_000, modelTimeMs: 180_000, oracleTimeMs: 180_000 } as const;

/** What the runner hands the suite's scenario files (through `openSuite`): the options that judge the target, and the run's names. */
export type ConformanceSuiteConfig = Omit<
  ConformanceOptions,
  | 'junit'
  | 'report'
  | 'html'
  | 'only'
  | 'workers'
  | 'seed'
  | 'modelRuns'
  | 'modelTimeMs'
  | 'oracleRuns'
  | 'oracleTimeMs'
  | 'thorough'
  | 'caFile'
  | 'insecure'
  | 'header'
  | 'maxWaitS'
  | 'maxRunS'
  | 'maxUnanswered'
  | 'maxBodyBytes'
  | 'minCoverage'
  | 'clockSkewMs'
> & {
  clockSkewMs: number;
  /** Scenario files run at once. */
  workers: number;
  maxWaitMs: number;
  maxBodyBytes: number;
  /** When the run stops (ms since the epoch). */
  deadlineAt: number;
  /** What the CLI's probe saw of the target before the run: a target silent from the start stops the run early. */
  liveness?: Liveness;
  /** Requests in a row without a complete answer that stop the run (`--max-unanswered`). */
  maxUnanswered: number;
  /** A folder the run's scenario files share (the stop mark): removed when the run ends. */
  stateDir: string;
  /** The run's seed (given, or drawn and printed). */
  seed: number;
  modelRuns: number;
  modelTimeMs: number;
  oracleRuns: number;
  oracleTimeMs: number;
  /** Names everything the run creates: `conformance-<runId>-...`. */
  runId: string;
  /** Where curl reproducers put request bodies. */
  reproDir: string;
  /** How reproducers name `reproDir`: relative to the report's folder when there is a report, so its CI artifact replays as is. */
  reproShownAs: string;
  /** How the target is reached: certificates, proxy, gateway headers. */
  transport: TransportSettings;
  /**
   * The contract of `spec`, validated and dereferenced once by the CLI: scenario files judge against exactly
   * this document (a --spec URL is fetched once) and never load it again.
   */
  contractDocument: OpenAPIV3_1.Document;
};

/** Exit codes: every check passed, a check failed, bad usage or an unreachable or unavailable target. */
export const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

/** Thrown for bad usage or an unusable target: printed as one clear message, exit code 2. */
export class UsageError extends Error {}

/** A request that got a complete answer: what it was (`GET /api/v1/documents`) and when it ended (ms since the epoch). */
export interface AnsweredRequest {
  request: string;
  at: number;
}

/** What the requests before the run (the CLI's probe of the target) saw: complete answers, and requests that got none in time. */
export interface Liveness {
  answered: number;
  unanswered: number;
  /** The last of them that was answered. */
  lastAnswered?: AnsweredRequest;
}
