// Test-only: sets of realistic defects, each chosen blind from the contract, as another team implementing it
// might make them: of the reference core (realistic-defects.json), and of the independent clean-room
// implementation (clean-room-defects.json, and a second set written later, clean-room-defects-2.json, to
// measure the suite on defects nobody had seen); and how one run of the full profile judges a service with one of
// them applied (or with none, the baseline).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedChecks, fullProfileArgs, runSuite, type SuiteRun } from '@docproc-kit/test-support/run-suite.js';
import type { ChildService } from './child-service.js';
import { CLEAN_ROOM, serveCleanRoom } from './clean-room-server.js';
import { CORE_FAILS_UNMUTATED, type CorePatch, mutatedCopy, REFERENCE_SRC, serveCore } from './mutated-core.js';

/** One defect: a find/replace on a service's sources, the contract sentence it breaks, and the shortcut it stands for. */
export interface RealisticDefect extends CorePatch {
  breaks: string;
  why: string;
}

const load = (name: string) => JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8')) as RealisticDefect[];

const root = fileURLToPath(new URL('../../../', import.meta.url));
const KEYS = ['defects-key', 'defects-second-key'];
const MAX_FILE_BYTES = 65_536;
// A fixed seed, so a defect's verdict is the same on every run (the model and differential runs draw their sequences from it).
const SEED = '7';

/** What the full profile said of one service. */
export interface Verdict {
  code: number | null;
  failed: string[];
  output: string;
}

/** A set of defects of one service's sources, and how the service is served from a copy of them. */
export interface DefectSet {
  name: string;
  defects: RealisticDefect[];
  /** The sources' folder, repository-relative: every defect's `file` is in it. */
  sources: string;
  serve(dir: string): Promise<ChildService>;
  /** Whether undocumented properties fail (the reference core documents all of its own). */
  strict: boolean;
  /** Checks the service fails with no defect (what it does not do at all): left out of every verdict. */
  failsUnmutated: readonly string[];
  /** How many defects the set holds at least, so that none is dropped unnoticed. */
  size: number;
}

export const DEFECT_SETS: Record<'core' | 'clean-room' | 'clean-room-2', DefectSet> = {
  core: {
    name: 'core',
    defects: load('./realistic-defects.json'),
    sources: REFERENCE_SRC,
    serve: (dir) => serveCore(dir, { apiKeys: KEYS, maxFileBytes: MAX_FILE_BYTES, processingDelayMs: 200 }),
    strict: true,
    failsUnmutated: CORE_FAILS_UNMUTATED,
    size: 50,
  },
  'clean-room': {
    name: 'clean-room',
    defects: load('./clean-room-defects.json'),
    sources: CLEAN_ROOM,
    serve: (dir) => serveCleanRoom({ apiKeys: KEYS, maxFileBytes: MAX_FILE_BYTES, maxFiles: 20 }, dir),
    strict: false,
    failsUnmutated: [],
    size: 30,
  },
  'clean-room-2': {
    name: 'clean-room-2',
    defects: load('./clean-room-defects-2.json'),
    sources: CLEAN_ROOM,
    serve: (dir) => serveCleanRoom({ apiKeys: KEYS, maxFileBytes: MAX_FILE_BYTES, maxFiles: 20 }, dir),
    strict: false,
    failsUnmutated: [],
    size: 20,
  },
};

/**
 * A run's verdict with `ignored` checks left out: a run that failed only those (and crashed nowhere) passed.
 * @example verdictWithout(run, CORE_FAILS_UNMUTATED).code // 0 for the fetch mock with no defect
 */
export function verdictWithout(run: SuiteRun, ignored: readonly string[]): Verdict {
  const failed = failedChecks(run).filter((id) => !ignored.includes(id));
  const onlyIgnored = run.code === 1 && failed.length === 0 && (run.report?.unattributed.length ?? 1) === 0;
  return { code: onlyIgnored ? 0 : run.code, failed, output: run.output };
}

/**
 * The full profile, both keys, against the set's service with `defect` applied (or as it is, without one).
 * @example const { code, failed } = await judgeDefect(DEFECT_SETS.core, DEFECT_SETS.core.defects[0]);
 */
export async function judgeDefect(set: DefectSet, defect?: RealisticDefect, extraArgs: readonly string[] = []): Promise<Verdict> {
  const copy = defect ? mutatedCopy(defect, set.sources) : { src: join(root, set.sources), remove: () => {} };
  try {
    const service = await set.serve(copy.src);
    try {
      const args = [
        ...fullProfileArgs(service.baseUrl, { keys: KEYS, maxFileBytes: MAX_FILE_BYTES, requestTimeoutMs: 20_000, strict: set.strict }),
        ...['--seed', SEED],
        ...extraArgs,
      ];
      const run = await runSuite(args, { timeoutMs: 600_000 });
      return verdictWithout(run, set.failsUnmutated);
    } finally {
      await service.close();
    }
  } finally {
    copy.remove();
  }
}
