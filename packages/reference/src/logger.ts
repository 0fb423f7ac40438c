/**
 * Where the core reports what fails no request (a run that could not be stored, say): structured details
 * first, then the message. pino's logger fits as it is; the core needs nothing else of a logger.
 * @example const logger: CoreLogger = { info: () => {}, error: (details, message) => console.error(message, details) };
 */
export interface CoreLogger {
  info(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}
