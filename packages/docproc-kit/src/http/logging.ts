import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactQuery } from '@docproc-kit/reference/http/redaction.js';
import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';
import pinoPretty from 'pino-pretty';
import { requestState } from './request-state.js';

/** Log levels `--log-level` accepts. */
export const LOG_LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The server's logger: JSON lines, or human-readable lines when `pretty` (a terminal).
 * @example const logger = createLogger({ level: 'info', pretty: process.stdout.isTTY });
 */
export function createLogger(options: { level: LevelWithSilent; pretty?: boolean; destination?: DestinationStream }): Logger {
  // Asynchronous: under load, lines written while a write is in flight go out together instead of
  // one blocking write each; when idle, each line is written at once. pino flushes on exit.
  const destination =
    options.destination ??
    (options.pretty
      ? pinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
      : pino.destination({ dest: 1, sync: false }));
  return pino({ level: options.level }, destination);
}

const INFO = 30;
const ERROR = 50;
// The keys of the request line; a serializer or redaction of one of them means the line must go through pino.
const LINE_KEYS = ['requestId', 'req', 'res', 'durationMs', 'tenant', 'aborted'];

type PinoInternals = Record<symbol, unknown>;

/**
 * Writes one line as `logger.info(fields, message)` (or `error`) would, byte for byte, straight to its
 * destination, from pino's own pieces (its level prefix, time function, bindings, message key and line
 * end): pino's general path (its key walk, its serializers) was most of a list request's logging. A
 * logger that would change such a line (a mixin, a log formatter, hooks, a message prefix, a serializer
 * or redaction of one of the line's keys) or a destination that wants pino's metadata (a multistream)
 * gets the line through pino.
 */
function createLineWriter(logger: Logger) {
  const symbols = pino.symbols;
  const internals = logger as unknown as PinoInternals;
  const stream = internals[symbols.streamSym] as ({ write?: unknown } & Record<symbol, unknown>) | undefined;
  const formatters = internals[symbols.formattersSym] as { log?: unknown } | undefined;
  const hooks = internals[symbols.hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
  const serializers = internals[symbols.serializersSym] as Record<string, unknown>;
  const stringifiers = internals[symbols.stringifiersSym] as Record<string | symbol, unknown>;
  const levels = internals[symbols.lsCacheSym] as Record<number, string | undefined>;
  const messageKey = internals[symbols.messageKeySym] as string;
  const plain =
    typeof levels[INFO] === 'string' &&
    typeof levels[ERROR] === 'string' &&
    typeof stream?.write === 'function' &&
    !stream[symbols.needsMetadataGsym] &&
    !formatters?.log &&
    !internals[symbols.mixinSym] &&
    !hooks?.logMethod &&
    !hooks?.streamWrite &&
    // Not in pino's types, but in its symbols.
    !internals[(symbols as unknown as Record<string, symbol>).msgPrefixSym!] &&
    !stringifiers[symbols.wildcardFirstSym] &&
    ![...LINE_KEYS, messageKey].some((key) => serializers[key] || stringifiers[key]);
  const time = internals[symbols.timeSym] as (this: Logger) => string;
  const bindings = (internals[symbols.chindingsSym] as string | undefined) ?? '';
  const end = internals[symbols.endSym] as string;
  return (level: typeof INFO | typeof ERROR, fields: string, fallback: () => object, message: string) => {
    if (logger.levelVal > level) return;
    if (!plain) return level === ERROR ? logger.error(fallback(), message) : logger.info(fallback(), message);
    (stream as { write(line: string): unknown }).write(
      `${levels[level]}${time.call(logger)}${bindings},${fields},${JSON.stringify(messageKey)}:${JSON.stringify(message)}${end}`,
    );
  };
}

/** Told of every answered request when its response closes: its operation, status and duration (the metrics). */
export type ObserveRequest = (operation: string, status: number, seconds: number) => void;

/** The operation of a request that is not the API's (the API reference, a 404 outside it). */
export const OTHER_OPERATION = 'other';

/**
 * One log line per request, written when the response closes: request id, method, path, status,
 * duration, the caller's tenant id, and `aborted` when the client went away first. Headers are
 * never logged, so neither is the API key, and secret-looking query values are redacted.
 *
 * Not pino-http: it builds child loggers for every request, and measured on a list request that
 * cost a third of the server's throughput (`npm run bench:profile`; BENCHMARKS.md). This writes
 * the same fields as pino would, in one line.
 * @example const logRequest = createRequestLog(logger); logRequest(req, res);
 */
export function createRequestLog(logger: Logger, observe?: ObserveRequest): (req: IncomingMessage, res: ServerResponse) => void {
  const write = createLineWriter(logger);
  return (req, res) => {
    const started = performance.now();
    // Read now: a router mounted under a prefix (Express's `use('/docs/assets', ...)`) strips it from req.url.
    const target = req.url ?? '';
    // `on`, not `once`: a response closes once, and this runs on every request.
    res.on('close', () => {
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const { statusCode } = res;
      const method = req.method;
      const url = redactQuery(target);
      const aborted = !res.writableFinished;
      const state = requestState(res);
      const tenant = state.tenant;
      observe?.(state.operation ?? OTHER_OPERATION, statusCode, (performance.now() - started) / 1000);
      const fields =
        `"requestId":${JSON.stringify(req.id)},"req":{"method":${JSON.stringify(method)},"url":${JSON.stringify(url)}},` +
        `"res":{"statusCode":${statusCode}},"durationMs":${durationMs}` +
        `${tenant === undefined ? '' : `,"tenant":${JSON.stringify(tenant)}`}${aborted ? ',"aborted":true' : ''}`;
      const fallback = () => ({
        requestId: req.id,
        req: { method, url },
        res: { statusCode },
        durationMs,
        tenant,
        ...(aborted ? { aborted } : {}),
      });
      const message = `${method} ${url} ${statusCode} ${Math.round(durationMs)} ms${aborted ? ' (client went away)' : ''}`;
      write(statusCode >= 500 ? ERROR : INFO, fields, fallback, message);
    });
  };
}
