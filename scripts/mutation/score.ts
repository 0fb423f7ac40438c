// Reads Stryker's JSON report and the committed list of equivalent mutants, and says what the suite killed:
// `mutation score: N% of M non-equivalent mutants killed`. Run alone: `tsx scripts/mutation/score.ts [report]`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Where the mutants no client can tell from the original are listed, each with its reason. */
export const EQUIVALENT_FILE = 'packages/conformance/proofs/equivalent-mutants.md';
export const REPORT_FILE = 'reports/mutation/mutation.json';

/** One mutant as the score sees it. */
export interface ScoredMutant {
  key: string;
  status: string;
}

interface ReportMutant {
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
export function mutantKey(path: string, m: ReportMutant): string {
  return `${path}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName} ${oneLine(m.replacement ?? '')}`;
}

/** The mutants of a Stryker JSON report (mutation-testing-report-schema), keyed. */
export function readReport(file = REPORT_FILE): ScoredMutant[] {
  const report = JSON.parse(readFileSync(new URL(file, `file://${root}`), 'utf8')) as {
    files: Record<string, { mutants: ReportMutant[] }>;
  };
  return Object.entries(report.files).flatMap(([path, { mutants }]) =>
    mutants.map((m) => ({ key: mutantKey(path.replace(root, ''), m), status: m.status })),
  );
}

/** The keys listed as equivalent: the first cell of each table row of {@link EQUIVALENT_FILE}, in backticks. */
export function readEquivalent(file = EQUIVALENT_FILE): Set<string> {
  const text = readFileSync(new URL(file, `file://${root}`), 'utf8');
  const keys = [...text.matchAll(/^\|\s*`([^`]+)`\s*\|/gm)].map((m) => oneLine(m[1]!));
  return new Set(keys);
}

/** The score over what the suite judged, the listed equivalents taken out. */
export function score(mutants: ScoredMutant[], equivalent: Set<string>) {
  const judged = mutants.filter((m) => DETECTED.has(m.status) || UNDETECTED.has(m.status));
  const equivalents = judged.filter((m) => UNDETECTED.has(m.status) && equivalent.has(m.key));
  const counted = judged.filter((m) => !equivalents.includes(m));
  const killed = counted.filter((m) => DETECTED.has(m.status)).length;
  const survivors = counted.filter((m) => UNDETECTED.has(m.status)).map((m) => m.key);
  const percent = counted.length === 0 ? 0 : Math.floor((1000 * killed) / counted.length) / 10;
  return {
    total: mutants.length,
    notJudged: mutants.length - judged.length,
    equivalent: equivalents.length,
    counted: counted.length,
    killed,
    survivors,
    line: `mutation score: ${percent}% of ${counted.length} non-equivalent mutants killed`,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = score(readReport(process.argv[2]), readEquivalent());
  for (const key of result.survivors) console.log(`survived: ${key}`);
  console.log(result.line);
}
