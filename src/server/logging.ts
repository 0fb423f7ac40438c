import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { pinoHttp } from 'pino-http';
import pinoPretty from 'pino-pretty';

/** Log levels `--log-level` accepts. */
export const LOG_LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The server's logger: JSON lines, or human-readable lines when `pretty` (a terminal).
 * @example const logger = createLogger({ level: 'info', pretty: process.stdout.isTTY });
 */
export function createLogger(options: { level: LevelWithSilent; pretty?: boolean; destination?: DestinationStream }): Logger {
  const destination =
    options.destination ?? (options.pretty ? pinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) : undefined);
  return destination ? pino({ level: options.level }, destination) : pino({ level: options.level });
}

type Res = ServerResponse & { locals?: Record<string, unknown> };
type Req = IncomingMessage & { originalUrl?: string; id?: unknown };

/**
 * One log line per request: request id, method, path, status, duration and the caller's tenant id.
 * Headers are never logged, so neither is the API key.
 * @example app.use(httpLogger(logger));
 */
export function httpLogger(logger: Logger): RequestHandler {
  return pinoHttp<Req, Res>({
    logger,
    genReqId: (req, res) => String(res.getHeader('x-request-id') ?? req.id ?? ''),
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    quietReqLogger: true,
    serializers: {
      req: (req: { method: string; raw?: Req; url: string }) => ({ method: req.method, url: req.raw?.originalUrl ?? req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customProps: (_req, res) => ({ tenant: res.locals?.tenant }),
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (req, res, ms) => `${req.method} ${req.originalUrl ?? req.url} ${res.statusCode} ${Math.round(ms)} ms`,
    customErrorMessage: (req, res) => `${req.method} ${req.originalUrl ?? req.url} ${res.statusCode}`,
    // The error handler already logged the real error with its stack; pino-http's own stand-in
    // ("failed with status code 500") would only add noise to the request line.
    customErrorObject: (_req, _res, _error, value: Record<string, unknown>) => ({ ...value, err: undefined }),
  }) as unknown as RequestHandler;
}
