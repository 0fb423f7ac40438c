// Test-only: a set of realistic defects of the reference core (realistic-defects.json), chosen from the
// contract alone, as another team implementing it might make them; and how one run of the full profile
// judges the core with one of them applied (or with none, the baseline).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type CorePatch, mutatedCopy, serveCore } from './mutated-core.js';
import { failedChecks, fullProfileArgs, runSuite } from './run-suite.js';

/** One defect: a find/replace on the core, the contract sentence it breaks, and the shortcut it stands for. */
export interface RealisticDefect extends CorePatch {
  breaks: string;
  why: string;
}

export const REALISTIC_DEFECTS = JSON.parse(
  readFileSync(new URL('./realistic-defects.json', import.meta.url), 'utf8'),
) as RealisticDefect[];

const KEYS = ['defects-key', 'defects-second-key'];
const SETTINGS = { apiKeys: KEYS, maxFileBytes: 65_536, processingDelayMs: 200 };
// A fixed seed, so a defect's verdict is the same on every run (the model and differential runs draw their sequences from it).
const SEED = '7';
const UNCHANGED_SRC = fileURLToPath(new URL('../../reference/src', import.meta.url));

/** What the full profile said of one core. */
export interface Verdict {
  code: number | null;
  failed: string[];
  output: string;
}

async function judge(src: string, extraArgs: readonly string[]): Promise<Verdict> {
  const core = await serveCore(src, SETTINGS);
  try {
    const args = [
      ...fullProfileArgs(core.baseUrl, { keys: KEYS, maxFileBytes: SETTINGS.maxFileBytes, requestTimeoutMs: 20_000 }),
      ...['--seed', SEED],
      ...extraArgs,
    ];
    const run = await runSuite(args, { timeoutMs: 600_000 });
    return { code: run.code, failed: failedChecks(run), output: run.output };
  } finally {
    await core.close();
  }
}

/**
 * The full profile, both keys, against the core with `defect` applied (or the core as it is, without one).
 * @example const { code, failed } = await judgeDefect(REALISTIC_DEFECTS[0]);
 */
export async function judgeDefect(defect?: RealisticDefect, extraArgs: readonly string[] = []): Promise<Verdict> {
  if (!defect) return judge(UNCHANGED_SRC, extraArgs);
  const copy = mutatedCopy(defect);
  try {
    return await judge(copy.src, extraArgs);
  } finally {
    copy.remove();
  }
}
