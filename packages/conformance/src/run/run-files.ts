import { basename, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { collectScenarios, type RunContext } from '../harness/registry.js';
import type { FileResult } from '../report/reporter.js';
import { firstLine, runScenario } from './run-scenario.js';

/** What {@link runFiles} needs: the files in the order they start, the run's context, and how many run at once. */
export interface RunFilesOptions {
  files: string[];
  context: RunContext;
  workers: number;
  /** File names in the results are relative to this folder (the package's root). */
  root: string;
  /** How long the scenario starting now may take (the run's deadline and a margin). */
  timeoutMs(): number;
  onFileEnd(result: FileResult): void;
}

/**
 * Runs scenario files `workers` at once in this process, each file's scenarios one after another (they share
 * set-up through `once`). Each file is imported afresh for the run (a query names the run), so one process
 * can run the suite again and again. Errors nothing awaited (a stray rejection) are collected, never fatal.
 */
export async function runFiles(options: RunFilesOptions): Promise<{ files: FileResult[]; unhandled: string[] }> {
  const unhandled: string[] = [];
  const onError = (error: unknown) => unhandled.push(firstLine(error));
  process.on('unhandledRejection', onError);
  process.on('uncaughtException', onError);
  const results: FileResult[] = [];
  const queue = [...options.files];
  const lane = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const result = await runFile(path, options);
      results.push(result);
      options.onFileEnd(result);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.workers, options.files.length)) }, lane));
  } finally {
    process.off('unhandledRejection', onError);
    process.off('uncaughtException', onError);
  }
  // The report lists files by name, whatever order they ended in: two runs' reports compare line by line.
  return { files: results.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)), unhandled };
}

async function runFile(path: string, options: RunFilesOptions): Promise<FileResult> {
  const startedAt = performance.now();
  const file = relative(options.root, path);
  const url = `${pathToFileURL(path).href}?run=${encodeURIComponent(options.context.config.runId)}`;
  const ended = (extra: Pick<FileResult, 'tests'> & Partial<FileResult>): FileResult => ({
    file,
    name: basename(path),
    durationMs: Math.round(performance.now() - startedAt),
    ...extra,
  });
  let scenarios: Awaited<ReturnType<typeof collectScenarios>>;
  try {
    scenarios = await collectScenarios(options.context, () => import(url));
  } catch (error) {
    return ended({ tests: [], loadError: firstLine(error) });
  }
  const tests = [];
  for (const scenario of scenarios) tests.push(await runScenario(scenario, options.timeoutMs()));
  return ended({ tests });
}
