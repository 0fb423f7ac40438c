// Test-only: a generated mutant of the reference core (as StrykerJS lists it), or a hand-written find/replace
// patch of it or of another service's sources, applied to a copy of them; and the fetch mock on a copy of the
// core served from a child process (serve-mutated-core.ts). The copy sits under reports/ (ignored by git),
// inside the repository so that its package imports resolve as the original's do.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChildService, startChildService } from './child-service.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** The reference core's sources, repository-relative. */
export const REFERENCE_SRC = 'packages/reference/src/';

/** One generated mutant: where (Stryker's location: lines 1-based, columns 1-based, end exclusive), what it replaces, and with what. */
export interface CoreMutant {
  /** `path:line:column Mutator replacement`, as `npm run mutation` names a mutant. */
  key: string;
  file: string;
  start: { line: number; column: number };
  end: { line: number; column: number };
  mutator: string;
  original: string;
  replacement: string;
  /** What the mutant breaks, and which oracle step shows it. */
  why: string;
}

/** The offset of a 1-based line and column in `text`. */
function offsetOf(text: string, { line, column }: { line: number; column: number }): number {
  let at = 0;
  for (let l = 1; l < line; l++) at = text.indexOf('\n', at) + 1;
  return at + column - 1;
}

/** `text` with the mutant applied; throws when the text at its location is not its `original` (the sources moved on). */
export function applyMutant(text: string, mutant: CoreMutant): string {
  const from = offsetOf(text, mutant.start);
  const to = offsetOf(text, mutant.end);
  const found = text.slice(from, to);
  if (found !== mutant.original)
    throw new Error(`${mutant.key}: expected ${JSON.stringify(mutant.original)} at its location, found ${JSON.stringify(found)}`);
  return text.slice(0, from) + mutant.replacement + text.slice(to);
}

/** A hand-written change of a service's sources: `find`, a substring that occurs exactly once in `file`, becomes `replace`. */
export interface CorePatch {
  id: string;
  file: string;
  find: string;
  replace: string;
}

/** `text` with the patch applied; throws unless its `find` occurs exactly once (the sources moved on). */
export function applyPatch(text: string, patch: CorePatch): string {
  const occurrences = text.split(patch.find).length - 1;
  if (occurrences !== 1) throw new Error(`${patch.id}: expected its text once in ${patch.file}, found it ${occurrences} times`);
  return text.replace(patch.find, () => patch.replace);
}

/**
 * A copy of the sources under `from` (repository-relative: the reference core's unless told) with `change`
 * applied (its `src` dir), removed by `remove`.
 */
export function mutatedCopy(change: CoreMutant | CorePatch, from = REFERENCE_SRC): { src: string; remove(): void } {
  const name = 'key' in change ? change.key : change.id;
  if (!change.file.startsWith(from)) throw new Error(`${name}: not a file of ${from}`);
  mkdirSync(join(root, 'reports'), { recursive: true });
  const dir = mkdtempSync(join(root, 'reports', 'mutated-core-'));
  const src = join(dir, 'src');
  cpSync(join(root, from), src, { recursive: true });
  const file = join(src, change.file.slice(from.length));
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, 'key' in change ? applyMutant(text, change) : applyPatch(text, change));
  return { src, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The fetch mock's settings (those of packages/msw/src/fetch-conformance.test.ts). */
export interface MockSettings {
  apiKeys: string[];
  maxFileBytes: number;
  processingDelayMs: number;
}

/**
 * The checks the fetch mock fails with no defect: it has no OCR engine (packages/msw/README.md), so a legible
 * scan completes with no text. They tell no defect of the core apart, so a verdict on it leaves them out.
 */
export const CORE_FAILS_UNMUTATED: readonly string[] = ['lifecycle.scan-read-by-ocr'];

/**
 * Serves the fetch mock on the core at `src` from a child process; rejects if it has no URL within `startMs`.
 * @example const core = await serveCore(copy.src, { apiKeys: ['k'], maxFileBytes: 65536, processingDelayMs: 200 }); await core.close();
 */
export function serveCore(src: string, settings: MockSettings, startMs = 60_000): Promise<ChildService> {
  return startChildService({
    what: 'the mutated core',
    args: [
      ...['--conditions=docproc-source', '--import', 'tsx'],
      ...[fileURLToPath(new URL('./serve-mutated-core.ts', import.meta.url)), JSON.stringify(settings)],
    ],
    cwd: root,
    env: { DOCPROC_MUTATED_REFERENCE_SRC: src },
    startMs,
  });
}
