import type { RequestHandler } from 'express';
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import pinoPretty from 'pino-pretty';

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
    (options.pretty ? pinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) : pino.destination({ dest: 1, sync: false }));
  return pino({ level: options.level }, destination);
}

/**
 * One log line per request, written when the response closes: request id, method, path, status,
 * duration, the caller's tenant id, and `aborted` when the client went away first. Headers are
 * never logged, so neither is the API key.
 *
 * Not pino-http: it builds child loggers for every request, and measured on a list request that
 * cost a third of the server's throughput (`npm run bench:profile`; BENCHMARKS.md). This writes
 * the same fields through the same pino logger with one call.
 * @example app.use(httpLogger(logger));
 */
export function httpLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => {
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const { statusCode } = res;
      const url = req.originalUrl;
      const aborted = !res.writableFinished;
      const line = {
        requestId: req.id,
        req: { method: req.method, url },
        res: { statusCode },
        durationMs,
        tenant: res.locals.tenant as string | undefined,
        ...(aborted ? { aborted } : {}),
      };
      const message = `${req.method} ${url} ${statusCode} ${Math.round(durationMs)} ms${aborted ? ' (client went away)' : ''}`;
      if (statusCode >= 500) logger.error(line, message);
      else logger.info(line, message);
    });
    next();
  };
}
