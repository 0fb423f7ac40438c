import type { IncomingMessage, ServerResponse } from 'node:http';
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

// Query parameters whose values are secrets when a client puts its key in the URL by mistake.
const SECRET_PARAM = /key|token|secret|passw|auth/i;

/**
 * The URL with the value of every secret-looking query parameter (`x-api-key`, `api_key`, `token`,
 * ...) replaced by `[REDACTED]`; the server reads keys only from the header, but a client that
 * sends one in the URL must not find it in the log.
 * @example redactQuery('/x?api_key=s3cret&page=2'); // '/x?api_key=[REDACTED]&page=2'
 */
export function redactQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is judged as it is.
      }
      return eq >= 0 && SECRET_PARAM.test(decoded) ? `${name}=[REDACTED]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/**
 * One log line per request, written when the response closes: request id, method, path, status,
 * duration, the caller's tenant id, and `aborted` when the client went away first. Headers are
 * never logged, so neither is the API key, and secret-looking query values are redacted.
 *
 * Not pino-http: it builds child loggers for every request, and measured on a list request that
 * cost a third of the server's throughput (`npm run bench:profile`; BENCHMARKS.md). This writes
 * the same fields through the same pino logger with one call.
 * @example logRequest(logger, req, res);
 */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  // Read now: a router mounted under a prefix (Express's `use('/docs/assets', ...)`) strips it from req.url.
  const target = req.url ?? '';
  res.once('close', () => {
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    const { statusCode } = res;
    const url = redactQuery(target);
    const aborted = !res.writableFinished;
    const line = {
      requestId: req.id,
      req: { method: req.method, url },
      res: { statusCode },
      durationMs,
      tenant: requestState(res).tenant,
      ...(aborted ? { aborted } : {}),
    };
    const message = `${req.method} ${url} ${statusCode} ${Math.round(durationMs)} ms${aborted ? ' (client went away)' : ''}`;
    if (statusCode >= 500) logger.error(line, message);
    else logger.info(line, message);
  });
}
