/** Options of {@link onShutdown}. */
export interface ShutdownOptions {
  /** The command's name, for the line printed when stopping takes too long. */
  name: string;
  /** Longest the stop may take before the process exits 1 anyway (none: no limit). */
  deadlineMs?: number;
  /** Exit code after a clean stop (default 0); a function decides it once the stop is done. */
  exitCode?: () => number;
}

/**
 * Runs `stop` on the first SIGINT or SIGTERM, then exits. A terminal's Ctrl-C through `npm start` often
 * arrives twice, so only the first signal counts; a stop that hangs past `deadlineMs` is cut short.
 * @example onShutdown({ name: 'docproc mock', deadlineMs: 10_000 }, async () => { await http.close(2_000); });
 */
export function onShutdown(
  { name, deadlineMs, exitCode = () => 0 }: ShutdownOptions,
  stop: (signal: NodeJS.Signals) => Promise<void>,
): void {
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (deadlineMs !== undefined) {
      setTimeout(() => {
        process.stderr.write(`${name}: shutdown took longer than ${deadlineMs / 1000} s, exiting anyway\n`);
        process.exit(1);
      }, deadlineMs).unref();
    }
    await stop(signal);
    process.exit(exitCode());
  };
  process.on('SIGINT', (signal) => void shutdown(signal));
  process.on('SIGTERM', (signal) => void shutdown(signal));
}
