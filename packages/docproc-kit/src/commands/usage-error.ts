import type { CommanderError } from 'commander';

/** The exit code of a command line that could not be understood (a bad option value, say). */
export const USAGE_EXIT_CODE = 2;

/**
 * For commander's `exitOverride`: commander has already printed its one-line message; a usage
 * error exits 2 (not commander's 1), `--help` and `--version` exit 0.
 * @example new Command('serve').exitOverride(exitOnUsageError);
 */
export function exitOnUsageError(error: CommanderError): never {
  process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT_CODE);
}
