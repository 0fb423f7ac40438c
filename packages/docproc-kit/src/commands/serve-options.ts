import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import { DEV_API_KEY } from '@docproc-kit/reference/api/keys.js';
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE } from '@docproc-kit/reference/journal/request-journal.js';
import { DEFAULT_EXTRACTION_LIMITS, MIN_EXTRACTION_MEMORY_MB } from '@docproc-kit/reference/processing/extraction.js';
import { DEFAULT_CONCURRENCY, DEFAULT_PROCESSING_DELAY_MS } from '@docproc-kit/reference/processing/settings.js';
import { InvalidArgumentError, Option } from 'commander';
import type { LevelWithSilent } from 'pino';
import {
  DEFAULT_HTTP_TIMEOUTS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  DEFAULT_SHUTDOWN_GRACE_MS,
} from '../http/http-server.js';
import { DEFAULT_LINGERING } from '../http/lingering-close.js';
import { LOG_LEVELS } from '../http/logging.js';
import { DEFAULT_MIN_UPLOAD_RATE } from '../http/upload/min-rate.js';
import { integerOption, portOption } from './number-options.js';

/** Options of `docproc serve`, as commander parses them. */
export interface ServeOptions {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  runLeaseMs?: number;
  apiKey: string[];
  processingDelayMs: number;
  failureRate: number;
  seed?: number;
  maxFileBytes: number;
  maxFiles: number;
  minUploadRate: number;
  maxConnections: number;
  maxConnectionsPerAddress: number;
  concurrency: number;
  extractionMemoryMb: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  shutdownGraceMs: number;
  lingeringTimeMs: number;
  lingeringTimeoutMs: number;
  lingeringMaxBytes: number;
  corsOrigin: string[];
  logLevel: LevelWithSilent;
  logFormat: 'auto' | 'pretty' | 'json';
  seedFile?: string;
  journalSize: number;
  metricsPort?: number;
}

const rate = (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1.');
  return n;
};

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The options of `docproc serve`, in the order `--help` lists them: each with its env variable, default and parser. */
export function serveOptions(): Option[] {
  return [
    new Option('-p, --port <port>', 'port to listen on (0 picks a free one)').env('PORT').default(4010).argParser(portOption),
    new Option('--host <host>', 'interface to listen on').env('DOCPROC_HOST').default('127.0.0.1'),

    new Option(
      '--data-dir <dir>',
      'where documents, files and text are stored (with --database-url: only uploads in flight, in a folder per process, so replicas may share it)',
    )
      .env('DOCPROC_DATA_DIR')
      .default('./.docproc'),

    new Option(
      '--database-url <url>',
      'a PostgreSQL database (postgres://user:password@host:5432/db) shared by any number of replicas: documents, the processing queue and the mock controls live there',
    ).env('DOCPROC_DATABASE_URL'),

    new Option(
      '--run-lease-ms <ms>',
      'with --database-url: how long a started run belongs to its replica before another takes it over (default: the extraction time limit + 52 s)',
    )
      .env('DOCPROC_RUN_LEASE_MS')
      .argParser(integerOption(1000)),

    new Option(
      '--api-key <key>',
      `an accepted API key (printable ASCII, no spaces), repeatable; env DOCPROC_API_KEYS (comma-separated). When set, the dev key ${DEV_API_KEY} is off`,
    )
      .argParser(collect)
      .default([], `${DEV_API_KEY}`),

    new Option('--processing-delay-ms <ms>', 'minimum time a processing run lasts')
      .env('DOCPROC_PROCESSING_DELAY_MS')
      .default(DEFAULT_PROCESSING_DELAY_MS)
      .argParser(integerOption(0)),

    new Option('--failure-rate <rate>', 'share (0..1) of otherwise good runs that fail with processing_error')
      .env('DOCPROC_FAILURE_RATE')
      .default(0)
      .argParser(rate),

    new Option('--seed <n>', 'seed for simulated failures, to make them reproducible')
      .env('DOCPROC_SEED')
      .argParser(integerOption(0, 2 ** 32 - 1)),

    new Option('--max-file-bytes <n>', 'largest accepted file in bytes')
      .env('DOCPROC_MAX_FILE_BYTES')
      .default(BUNDLED.uploadLimits.maxFileBytes)
      .argParser(integerOption(1)),

    new Option('--max-files <n>', 'most files per upload')
      .env('DOCPROC_MAX_FILES')
      .default(BUNDLED.uploadLimits.maxFiles)
      .argParser(integerOption(1, 1000)),

    new Option('--min-upload-rate <bytes>', 'bytes per second an upload body must average over each 10 s (slower ones are cut with a 408)')
      .env('DOCPROC_MIN_UPLOAD_RATE')
      .default(DEFAULT_MIN_UPLOAD_RATE.bytesPerSecond)
      .argParser(integerOption(0)),

    new Option(
      '--max-connections <n>',
      'connections open at once; beyond, a new one replaces one that sent no request in 1 s, or its request is answered 503 with Retry-After',
    )
      .env('DOCPROC_MAX_CONNECTIONS')
      .default(DEFAULT_MAX_CONNECTIONS)
      .argParser(integerOption(1)),

    new Option(
      '--max-connections-per-address <n>',
      'connections open at once from one client address; beyond, a new one replaces one of that address that sent no request in 1 s, or its request is answered 503 with Retry-After (0: off, as behind a proxy)',
    )
      .env('DOCPROC_MAX_CONNECTIONS_PER_ADDRESS')
      .default(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS)
      .argParser(integerOption(0)),

    new Option('--concurrency <n>', 'extractions (PDF parsing, OCR) running at once')
      .env('DOCPROC_CONCURRENCY')
      .default(DEFAULT_CONCURRENCY)
      .argParser(integerOption(1, 64)),

    new Option(
      '--extraction-memory-mb <MiB>',
      'all the memory one extraction (PDF parsing, page rendering, OCR) may take; a document that needs more fails unreadable_document',
    )
      .env('DOCPROC_EXTRACTION_MEMORY_MB')
      .default(DEFAULT_EXTRACTION_LIMITS.memoryMb)
      .argParser(integerOption(MIN_EXTRACTION_MEMORY_MB)),

    new Option('--headers-timeout-ms <ms>', 'time a client has to send its request headers (slow clients are cut)')
      .env('DOCPROC_HEADERS_TIMEOUT_MS')
      .default(DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs)
      .argParser(integerOption(1)),

    new Option('--request-timeout-ms <ms>', 'time a client has to send a whole request, upload included')
      .env('DOCPROC_REQUEST_TIMEOUT_MS')
      .default(DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs)
      .argParser(integerOption(1)),

    new Option(
      '--shutdown-grace-ms <ms>',
      'on SIGTERM/SIGINT, how long requests already being handled may take to finish (new ones get a 503); an upload not stored by then is not stored',
    )
      .env('DOCPROC_SHUTDOWN_GRACE_MS')
      .default(DEFAULT_SHUTDOWN_GRACE_MS)
      .argParser(integerOption(0)),

    new Option(
      '--lingering-time-ms <ms>',
      'after an answer sent before its request body arrived (a refused upload), how long the rest of the body is read and dropped at most before the connection closes (nginx lingering_time)',
    )
      .env('DOCPROC_LINGERING_TIME_MS')
      .default(DEFAULT_LINGERING.timeMs)
      .argParser(integerOption(0)),

    new Option(
      '--lingering-timeout-ms <ms>',
      'while lingering, how long to wait for the client to send more before closing (nginx lingering_timeout)',
    )
      .env('DOCPROC_LINGERING_TIMEOUT_MS')
      .default(DEFAULT_LINGERING.timeoutMs)
      .argParser(integerOption(0)),

    new Option('--lingering-max-bytes <n>', 'while lingering, the most bytes read and dropped before closing')
      .env('DOCPROC_LINGERING_MAX_BYTES')
      .default(DEFAULT_LINGERING.maxBytes)
      .argParser(integerOption(0)),

    new Option('--cors-origin <origin>', 'a browser origin allowed to call the API, repeatable; env DOCPROC_CORS_ORIGINS (comma-separated)')
      .argParser(collect)
      .default([], '*'),

    new Option('--seed-file <file>', 'JSON documents to create at start-up for tenants that have none (see docs/mock-controls.md)').env(
      'DOCPROC_SEED_FILE',
    ),

    new Option('--journal-size <n>', "answered requests each tenant's journal keeps (GET /_mock/requests; 0: none)")
      .env('DOCPROC_JOURNAL_SIZE')
      .default(DEFAULT_JOURNAL_SIZE)
      .argParser(integerOption(0, MAX_JOURNAL_SIZE)),

    new Option('--metrics-port <port>', 'serve /metrics (and /healthz, /readyz) on this port of --host instead of /metrics on the API port')
      .env('DOCPROC_METRICS_PORT')
      .argParser(portOption),

    new Option('--log-level <level>', 'request and processing log level').env('DOCPROC_LOG_LEVEL').default('info').choices(LOG_LEVELS),

    new Option('--log-format <format>', 'log lines for people or machines (auto: pretty on a terminal)')
      .env('DOCPROC_LOG_FORMAT')
      .default('auto')
      .choices(['auto', 'pretty', 'json']),
  ];
}
