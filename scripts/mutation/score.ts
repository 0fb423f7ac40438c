// Reads Stryker's JSON report and the committed list of equivalent mutants, and says what the suite killed:
// `mutation score: N% of M non-equivalent mutants killed`. Run alone: `tsx scripts/mutation/score.ts [report...]`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Where the mutants no client can tell from the original are listed, each with its reason. */
export const EQUIVALENT_FILE = 'packages/conformance/proofs/equivalent-mutants.md';
export const REPORT_FILE = 'reports/mutation/mutation.json';
/** The sample's survivors, committed: what a run of the sample left alive. */
export const SURVIVORS_FILE = 'packages/conformance/proofs/mutation-survivors.md';

/** One mutant as the score sees it. */
export interface ScoredMutant {
  key: string;
  status: string;
  /** The instrumenter's id of the mutant in its run (what its verdict is recorded under in the kills file). */
  id?: string;
}

interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}

// Killed and timed out are what Stryker calls detected; compile and runtime errors and ignored mutants are not
// counted either way (the suite never judged them).
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `path:line:column Mutator replacement`: how a mutant is named in the survivors and equivalent lists. */
export function mutantKey(path: string, m: Pick<ReportMutant, 'mutatorName' | 'replacement' | 'location'>): string {
  return `${path}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName} ${oneLine(m.replacement ?? '')}`;
}

/** The mutants of a Stryker JSON report (mutation-testing-report-schema), keyed. */
export function readReport(file = REPORT_FILE): ScoredMutant[] {
  const report = JSON.parse(readFileSync(new URL(file, `file://${root}`), 'utf8')) as {
    files: Record<string, { mutants: ReportMutant[] }>;
  };
  return Object.entries(report.files).flatMap(([path, { mutants }]) =>
    mutants.map((m) => ({ key: mutantKey(path.replace(root, ''), m), status: m.status, id: m.id })),
  );
}

/**
 * The keys listed as equivalent: the first cell of each table row of {@link EQUIVALENT_FILE}, as is (a key
 * may hold backticks, so it is not a code span); the cell ends at the first ` | `.
 */
export function readEquivalent(file = EQUIVALENT_FILE): Set<string> {
  const text = readFileSync(new URL(file, `file://${root}`), 'utf8');
  const keys = [...text.matchAll(/^\|\s*(packages\/.+?)\s+\|\s/gm)].map((m) => oneLine(m[1]!));
  return new Set(keys);
}

/** The score over what the suite judged, the listed equivalents taken out. */
export function score(mutants: ScoredMutant[], equivalent: Set<string>) {
  const judged = mutants.filter((m) => DETECTED.has(m.status) || UNDETECTED.has(m.status));
  const equivalents = judged.filter((m) => UNDETECTED.has(m.status) && equivalent.has(m.key));
  const counted = judged.filter((m) => !equivalents.includes(m));
  const killedMutants = counted.filter((m) => DETECTED.has(m.status));
  const killed = killedMutants.length;
  const survivors = counted.filter((m) => UNDETECTED.has(m.status)).map((m) => m.key);
  const percent = counted.length === 0 ? 0 : Math.floor((1000 * killed) / counted.length) / 10;
  return {
    total: mutants.length,
    notJudged: mutants.length - judged.length,
    equivalent: equivalents.length,
    counted: counted.length,
    killed,
    /** Stryker's ids of the killed mutants, for the kills file. */
    killedIds: killedMutants.flatMap((m) => (m.id === undefined ? [] : [m.id])),
    survivors,
    line: `mutation score: ${percent}% of ${counted.length} non-equivalent mutants killed`,
  };
}

/** Writes {@link SURVIVORS_FILE} from a sample's score, naming the command that ran the sample. */
export function writeSurvivors(result: ReturnType<typeof score>, command: string): void {
  const lines = [
    '# Survivors of the mutation sample',
    '',
    `Written by \`${command}\` (scripts/mutation/run.ts): the mutants of the sample that the conformance suite did`,
    `not kill and that \`${EQUIVALENT_FILE}\` does not list as equivalent, one key a line.`,
    '',
    `${result.line} (${result.total} mutants run, ${result.killed} killed, ${result.survivors.length} survived, ${result.equivalent} equivalent, ${result.notJudged} not judged).`,
    '',
    ...result.survivors.map((key) => `- ${key}`),
    '',
  ];
  writeFileSync(new URL(SURVIVORS_FILE, `file://${root}`), lines.join('\n'));
}

// `tsx scripts/mutation/score.ts [report...] [--survivors COMMAND]`: the score of reports already written (the
// shards of one run, `reports/mutation/mutation-shard-*.json`, are scored together), and (with --survivors) the
// survivors file for the sample COMMAND ran.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--survivors');
  const args = process.argv.slice(2, at === -1 ? undefined : at);
  const reports = args.length ? args : [REPORT_FILE];
  const result = score(
    reports.flatMap((report) => readReport(report)),
    readEquivalent(),
  );
  if (at !== -1) writeSurvivors(result, process.argv[at + 1] ?? 'npm run mutation');
  for (const key of result.survivors) console.log(`survived: ${key}`);
  console.log(result.line);
}
