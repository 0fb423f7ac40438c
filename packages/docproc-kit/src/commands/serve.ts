import { Command } from 'commander';
import { createLogger } from '../http/logging.js';
import { serveBanner } from './serve-banner.js';
import { type ServeOptions, serveOptions } from './serve-options.js';
import { serveSettings } from './serve-settings.js';
import { stopServeOnSignal } from './serve-shutdown.js';
import { type RunningServe, startServe } from './serve-start.js';
import { exitOnUsageError } from './usage-error.js';

/** `docproc serve`: the reference server with its embedded store. */
export function serveCommand(): Command {
  const command = new Command('serve')
    .description('Run the reference server: the contract made real, with an embedded store, real text extraction and mock controls.')
    .exitOverride(exitOnUsageError);
  for (const option of serveOptions()) command.addOption(option);
  return command.action(async (options: ServeOptions) => {
    const settings = serveSettings(options, process.env, process.stdout.isTTY === true);
    if ('refusal' in settings) {
      process.stderr.write(`docproc serve: ${settings.refusal}\n`);
      process.exit(2);
    }
    const logger = createLogger({ level: options.logLevel, pretty: settings.pretty });
    let running: RunningServe;
    try {
      running = await startServe(options, settings, logger);
    } catch (error) {
      process.stderr.write(`docproc serve: ${error instanceof Error ? error.message : String(error)}\n`);
      // A database that cannot be reached, or whose schema is newer than this code, is a refusal (exit 2).
      process.exit((error as { exitCode?: unknown }).exitCode === 2 ? 2 : 1);
    }
    process.stdout.write(serveBanner(options, settings.apiKeys, running));
    stopServeOnSignal(running, options, logger);
  });
}
