// Which checks killed each mutant: `npm run mutation` (run.ts) empties the file first, appends one JSON line
// per mutant its workers judged (suite-against-core.ts does the same under Stryker's own runner), and reads
// it after, to say how many kills only the differential oracle's checks made (ids `oracle.*`): mutants the
// rest of the suite would have let through.
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The prefix of the differential oracle's check ids. */
export const ORACLE_PREFIX = 'oracle.';

/** What the suite said of one mutant: the checks that failed in both runs (a kill), and those that failed once. */
export interface Verdict {
  failedBoth: string[];
  failedOnce: string[];
}

/** One line of the kills file: Stryker's id of the mutant, and its verdict. */
export interface KillRecord extends Verdict {
  mutant: string;
  killed: boolean;
}

/**
 * The repository a checkout directory belongs to: Stryker runs the suite inside its sandbox, a copy of the
 * repository under `.stryker-tmp/` in it, and the kills file belongs to the repository itself, where run.ts
 * reads it once the sandbox is gone.
 */
export function repositoryOf(dir: string): string {
  const sandbox = dir.indexOf('/.stryker-tmp/');
  return sandbox === -1 ? dir : dir.slice(0, sandbox + 1);
}

/** Where the verdicts of the current `npm run mutation` are appended. */
export const KILLS_FILE = `${repositoryOf(fileURLToPath(new URL('../../', import.meta.url)))}reports/mutation/kills.jsonl`;

/** Appends the active mutant's verdict; nothing outside a mutant run (Stryker's initial run, a run by hand). */
export function recordVerdict(verdict: Verdict, file = KILLS_FILE, mutant = process.env.__STRYKER_ACTIVE_MUTANT__): void {
  if (mutant === undefined) return;
  const record: KillRecord = { mutant, killed: verdict.failedBoth.length > 0, ...verdict };
  mkdirSync(dirname(file), { recursive: true });
  // One short append per line: concurrent runners' lines do not interleave.
  appendFileSync(file, `${JSON.stringify(record)}\n`);
}

/** Empties the kills file before a run. */
export function clearKills(file = KILLS_FILE): void {
  rmSync(file, { force: true });
}

/** The verdicts recorded, by mutant id (none when nothing was recorded). */
export function readKills(file = KILLS_FILE): Map<string, KillRecord> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return new Map();
  }
  const records = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as KillRecord);
  return new Map(records.map((r) => [r.mutant, r]));
}

/** How many of the killed mutants (`ids`) were killed by `oracle.*` checks alone. */
export function killedOnlyByOracle(ids: Iterable<string>, kills: Map<string, KillRecord>): number {
  let count = 0;
  for (const id of ids) {
    const failed = kills.get(id)?.failedBoth ?? [];
    if (failed.length > 0 && failed.every((check) => check.startsWith(ORACLE_PREFIX))) count++;
  }
  return count;
}
