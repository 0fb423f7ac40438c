// `npm run mutation`: a fixed sample of the reference core's generated mutants, each judged by the conformance
// suite (stryker.config.mjs), then the score. `-- --all`: every mutant. `-- --sample N`: a sample of about N.
// The sample is drawn from the complete list of mutants, which a first pass lists without running the suite
// (its test command is `true`), shuffled with a fixed seed: the same sources give the same sample.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LogLevel, PartialStrykerOptions } from '@stryker-mutator/api/core';
import { Stryker } from '@stryker-mutator/core';
import { clearKills, killedOnlyByOracle, readKills } from './kills.js';
import { type ListedMutant, sampleRanges } from './sample.js';
import { readEquivalent, readReport, score, writeSurvivors } from './score.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE_SEED = 29;
/**
 * About this many mutants: one suite run costs about 19 s of CPU and at least the model run's 20 s, so two at a
 * time on an idle 2-core machine judge about four a minute, and the listing pass takes a few minutes more.
 */
const DEFAULT_SAMPLE = 30;

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const all = process.argv.includes('--all');
const size = Number(option('--sample') ?? DEFAULT_SAMPLE);
const concurrency = option('--concurrency');
// Stryker merges its options into the config module's object: each run gets a copy of it, whole.
const configUrl = new URL('stryker.config.mjs', `file://${root}`).href;
const config = structuredClone((await import(configUrl)).default) as PartialStrykerOptions;
const options = (overrides: PartialStrykerOptions): PartialStrykerOptions => ({
  ...structuredClone(config),
  ...(concurrency ? { concurrency: Number(concurrency) } : {}),
  ...overrides,
});

/** Every mutant of the configured files, listed once per content of those files and of the options that decide the mutants. */
async function listMutants(): Promise<ListedMutant[]> {
  const hash = createHash('sha256').update(JSON.stringify([config.mutate, config.mutator, config.ignoreStatic]));
  for (const file of config.mutate ?? []) if (file) hash.update(readFileSync(new URL(file, `file://${root}`)));
  const cache = new URL(`reports/mutation/listing-${hash.digest('hex').slice(0, 16)}.json`, `file://${root}`);
  try {
    return JSON.parse(readFileSync(cache, 'utf8')) as ListedMutant[];
  } catch {
    const listed = await new Stryker(
      options({ commandRunner: { command: 'true' }, reporters: [], logLevel: 'warn' as LogLevel }),
    ).runMutationTest();
    mkdirSync(new URL('.', cache), { recursive: true });
    writeFileSync(
      cache,
      JSON.stringify(listed.map(({ fileName, mutatorName, replacement, location }) => ({ fileName, mutatorName, replacement, location }))),
    );
    return listed;
  }
}
const started = Date.now();

let mutate: string[] | undefined;
if (!all) {
  const listed = await listMutants();
  mutate = sampleRanges(listed, size, SAMPLE_SEED);
  console.log(
    `mutation: ${listed.length} mutants in all; a sample of ${mutate.length} ranges (seed ${SAMPLE_SEED}, about ${size} mutants)`,
  );
}
clearKills();
await new Stryker(options(mutate ? { mutate } : {})).runMutationTest();

const result = score(readReport(), readEquivalent());
const seconds = Math.round((Date.now() - started) / 1000);
const command = all ? 'npm run mutation -- --all' : `npm run mutation${option('--sample') ? ` -- --sample ${size}` : ''}`;
if (!all) writeSurvivors(result, command);
for (const key of result.survivors) console.log(`survived: ${key}`);
console.log(
  `mutation: ${result.total} run, ${result.killed} killed, ${result.survivors.length} survived, ${result.equivalent} equivalent, ${result.notJudged} not judged, in ${seconds} s`,
);
console.log(
  `mutation: ${killedOnlyByOracle(result.killedIds, readKills())} of the ${result.killed} killed only by oracle.* checks (the checks of each kill: reports/mutation/kills.jsonl)`,
);
console.log(result.line);
