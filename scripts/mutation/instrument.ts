// Instruments the reference core once for a whole mutation run: every mutant of the files stryker.config.mjs
// lists is placed in one copy of the core's sources behind Stryker's mutant switches, so a long-lived process
// can judge mutant after mutant by setting `globalThis.__stryker__.activeMutant` (worker.ts) instead of
// starting a process per mutant. The copy lies under reports/mutation/sandbox/, where the sandbox hook
// (sandbox-resolve.mjs, told by DOCPROC_MUTATION_SANDBOX) sends the suite's imports of the core.
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Mutant } from '@stryker-mutator/api/core';
import type { Logger } from '@stryker-mutator/api/logging';
import { Instrumenter, type InstrumentResult } from '@stryker-mutator/instrumenter';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Where the instrumented copy of the repository's reference sources is written (the repository's relative path kept). */
export const SANDBOX_DIR = join(root, 'reports/mutation/sandbox/');
const REFERENCE_SRC = 'packages/reference/src';

const quiet = () => false;
const logger: Logger = {
  isTraceEnabled: quiet,
  isDebugEnabled: quiet,
  isInfoEnabled: quiet,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
  fatal: (message: string) => console.error(message),
};

/**
 * Every mutant of `files` (paths relative to the repository) and the instrumented sources, written nowhere:
 * `content` reads a file's text (the working tree's by default; another commit's to find where a mutant was).
 */
export async function instrumentSources(
  files: readonly string[],
  content: (file: string) => string = (file) => readFileSync(join(root, file), 'utf8'),
): Promise<InstrumentResult> {
  const outside = files.filter((file) => !file.startsWith(`${REFERENCE_SRC}/`));
  if (outside.length) throw new Error(`only the reference core's sources can be mutated here, not ${outside.join(', ')}`);
  return new Instrumenter(logger).instrument(
    files.map((name) => ({ name, content: content(name), mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [] },
  );
}

/**
 * The mutants of `files` (paths relative to the repository), their switches written into a copy of the core
 * under `sandbox` (inside the repository, so the copy's imports of the other packages resolve).
 */
export async function instrumentCore(files: readonly string[], sandbox = SANDBOX_DIR): Promise<readonly Mutant[]> {
  const result = await instrumentSources(files);
  rmSync(sandbox, { recursive: true, force: true });
  // The files not mutated come along unchanged: the mutated ones import them by relative paths.
  cpSync(join(root, REFERENCE_SRC), join(sandbox, REFERENCE_SRC), {
    recursive: true,
    filter: (source) => !/\.test\.ts$/.test(source),
  });
  // What the core reads beside its sources by relative URL (the mock controls' contract).
  symlinkSync(join(root, 'packages/contract'), join(sandbox, 'packages/contract'));
  for (const file of result.files) {
    mkdirSync(dirname(join(sandbox, file.name)), { recursive: true });
    writeFileSync(join(sandbox, file.name), file.content);
  }
  return result.mutants;
}
