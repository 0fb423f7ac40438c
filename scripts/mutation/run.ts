// `npm run mutation`: a seeded sample of the reference core's generated mutants, each judged by the
// conformance suite, then the score. `-- --all`: every mutant but those listed as equivalent (which leave the score
// either way; `-- --judge-equivalents` judges them too, to find a listed one the suite now kills, at several times
// the cost, since a survivor runs every area that reaches it). `-- --sample N`: N mutants (default below).
// `-- --seed S` draws another sample; `-- --shard I/N` judges the I-th of N shards of the chosen mutants
// (reports and kills per shard; `npx tsx scripts/mutation/score.ts reports/mutation/mutation-shard-*.json`
// scores them together); `-- --concurrency N` worker processes (default 2); `-- --match TEXT` judges only the
// chosen mutants whose key holds TEXT (`--all --match multipart-body.ts`: every mutant of one file; given again,
// those whose key holds any of the texts, judged in one run); `-- --list`
// prints every generated mutant's key (those --match chooses, with it) and judges none.
//
// Every run names the rows of the equivalent-mutants table that match no generated mutant (stale-rows.ts).
//
// The core is instrumented once (instrument.ts: every mutant behind a switch), each area of the suite is run
// once against it unmutated to learn which mutants it reaches, and long-lived workers (worker.ts, pool.ts)
// then judge mutant after mutant by switching it on, running only the areas that reach it (select.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SCENARIO_AREAS } from '@docproc-kit/conformance';
import { instrumentCore, instrumentSources, SANDBOX_DIR } from './instrument.js';
import { clearKills, KILLS_FILE, killedOnlyByOracle, readKills, recordVerdict } from './kills.js';
import { startWorker, type Worker } from './pool.js';
import { readEquivalent, readReport, score, writeSurvivors } from './score.js';
import { type Coverage, type GeneratedMutant, keyOf, parseShard, planFor, sampleMutants, shardOf } from './select.js';
import { staleRows, staleRowsReport } from './stale-rows.js';
import type { WorkerReply } from './worker.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Enough for 100 judged mutants once those no area reaches are among them; about 12 minutes two at a time. */
const DEFAULT_SAMPLE = 120;
const DEFAULT_SEED = 29;
/** A mutant's bound: this many times its areas' unmutated time, plus the fixed part (a loaded machine's slack). */
const TIMEOUT_FACTOR = 3;
const TIMEOUT_MS = 30_000;
/** What a kill by a worker that ended is called among the failed checks. */
const WORKER_ENDED = '(the process of the core ended)';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}
const all = process.argv.includes('--all');
const judgeEquivalents = process.argv.includes('--judge-equivalents');
const size = Number(option('--sample') ?? DEFAULT_SAMPLE);
const seed = Number(option('--seed') ?? DEFAULT_SEED);
const shard = option('--shard') ? parseShard(option('--shard')!) : undefined;
// Every `--match TEXT` given; undefined when none is.
const matchTexts = process.argv.flatMap((arg, at) => (arg === '--match' && at + 1 < process.argv.length ? [process.argv[at + 1]!] : []));
const match = matchTexts.length ? matchTexts.join(' | ') : undefined;
const matches = (m: GeneratedMutant) => matchTexts.length === 0 || matchTexts.some((text) => keyOf(m).includes(text));
const concurrency = Number(option('--concurrency') ?? Math.min(2, availableParallelism()));
for (const [name, value] of [
  ['--sample', size],
  ['--seed', seed],
  ['--concurrency', concurrency],
] as const)
  if (!Number.isInteger(value) || value < (name === '--seed' ? 0 : 1)) throw new Error(`${name} takes a whole number, not ${option(name)}`);
const suffix = shard ? `-shard-${shard.index}-of-${shard.count}` : match === undefined ? '' : '-match';
const reportFile = `reports/mutation/mutation${suffix}.json`;
const killsFile = shard ? KILLS_FILE.replace(/\.jsonl$/, `${suffix}.jsonl`) : KILLS_FILE;

const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
const config = (await import(new URL('stryker.config.mjs', `file://${root}`).href)).default as { mutate: string[] };
const listOnly = process.argv.includes('--list');
// --list leaves the sandbox alone: a run judging meanwhile loads its modules from it.
const mutants = (listOnly ? (await instrumentSources(config.mutate)).mutants : await instrumentCore(config.mutate)) as GeneratedMutant[];
const equivalent = readEquivalent();
const stale = staleRowsReport(staleRows(equivalent, mutants.map(keyOf)));
for (const line of stale) console.log(line);
if (listOnly) {
  for (const m of mutants) if (matches(m)) console.log(keyOf(m));
  process.exit(0);
}
let chosen = all
  ? [...mutants].filter((m) => judgeEquivalents || !equivalent.has(keyOf(m))).sort((a, b) => keyOf(a).localeCompare(keyOf(b)))
  : sampleMutants(mutants, size, seed, equivalent);
if (shard) chosen = shardOf(chosen, shard);
chosen = chosen.filter(matches);
console.log(
  `mutation: ${mutants.length} mutants in all; judging ${all ? (judgeEquivalents ? 'every one' : 'every one not listed as equivalent') : `a sample of ${size} (seed ${seed}, listed equivalents left out)`}${shard ? `, shard ${shard.index}/${shard.count}` : ''}${match === undefined ? '' : `, those whose key holds ${matchTexts.map((t) => JSON.stringify(t)).join(' or ')}`}: ${chosen.length} (instrumented in ${elapsed()})`,
);

// Coverage: the areas split over the workers, each run once against the unmutated core.
const workers: Worker[] = await Promise.all(Array.from({ length: concurrency }, () => startWorker(SANDBOX_DIR)));
const areas = [...SCENARIO_AREAS];
const replies = await Promise.all(
  workers.map((worker, at) => worker.ask({ type: 'coverage', areas: areas.filter((_, i) => i % concurrency === at) }, 30 * 60_000)),
);
const staticIds = new Set<string>();
const perArea = new Map<string, Set<string>>();
const timesMs = new Map<string, number>();
for (const reply of replies) {
  if (reply === 'timeout' || reply.type !== 'coverage') throw new Error('the unmutated run did not finish');
  const failed = Object.entries(reply.failed);
  if (failed.length)
    throw new Error(`the unmutated core fails ${failed.map(([a, c]) => `${a}: ${c.join(', ')}`).join('; ')}: no mutant can be judged`);
  for (const id of reply.static) staticIds.add(id);
  for (const [area, ids] of Object.entries(reply.perArea)) perArea.set(area, new Set(ids));
  for (const [area, ms] of Object.entries(reply.timesMs)) timesMs.set(area, ms);
}
const coverage: Coverage = { static: staticIds, perArea, timesMs };
console.log(
  `mutation: the unmutated run, area by area, in ${elapsed()}: ${[...timesMs].map(([a, ms]) => `${a} ${(ms / 1000).toFixed(1)} s`).join(', ')}`,
);

// Judging: each worker takes the next mutant.
type Status = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage';
const statuses = new Map<string, Status>();
const queue = [...chosen];
let done = 0;
async function judgeOn(slot: number): Promise<void> {
  for (let m = queue.shift(); m; m = queue.shift()) {
    const plan = planFor(m.id, coverage);
    let status: Status;
    if (plan.kind === 'uncovered') status = 'NoCoverage';
    else {
      const bound = TIMEOUT_FACTOR * plan.areas.reduce((sum, a) => sum + timesMs.get(a)!, 0) + TIMEOUT_MS;
      // A mutant switched on as the modules load may keep its process from starting at all (a throw at import,
      // `new TextDecoder('')`): a core that cannot start is one every client notices, so the mutant is killed.
      const worker = plan.kind === 'fresh-process' ? await startWorker(SANDBOX_DIR, m.id).catch(() => undefined) : workers[slot]!;
      let reply: WorkerReply | 'timeout' | 'ended';
      try {
        reply = worker ? await worker.ask({ type: 'judge', id: m.id, areas: plan.areas }, bound) : 'ended';
      } catch {
        reply = 'ended';
      }
      if (reply === 'timeout' || reply === 'ended' || plan.kind === 'fresh-process') {
        worker?.close();
        if (plan.kind === 'switched') workers[slot] = await startWorker(SANDBOX_DIR);
      }
      if (reply === 'timeout') status = 'Timeout';
      else if (reply === 'ended') {
        status = 'Killed';
        recordVerdict({ failedBoth: [WORKER_ENDED], failedOnce: [] }, killsFile, m.id);
      } else if (reply.type === 'judge') {
        status = reply.killed ? 'Killed' : 'Survived';
        recordVerdict({ failedBoth: reply.failedBoth, failedOnce: reply.failedOnce }, killsFile, m.id);
      } else throw new Error('a worker answered a judgement with something else');
    }
    statuses.set(m.id, status);
    done++;
    if (done % 10 === 0 || done === chosen.length) console.log(`mutation: ${done} of ${chosen.length} judged (${elapsed()})`);
  }
}
mkdirSync(new URL('reports/mutation/', `file://${root}`), { recursive: true });
clearKills(killsFile);
await Promise.all(workers.map((_, slot) => judgeOn(slot)));
for (const worker of workers) worker.close();

// The report in Stryker's schema (mutation-testing-report-schema), so score.ts reads either.
const files: Record<string, { language: string; source: string; mutants: unknown[] }> = {};
for (const m of chosen) {
  files[m.fileName] ??= { language: 'typescript', source: '', mutants: [] };
  const file = files[m.fileName]!;
  const { start, end } = m.location;
  file.mutants.push({
    id: m.id,
    mutatorName: m.mutatorName,
    replacement: m.replacement,
    status: statuses.get(m.id),
    location: { start: { line: start.line + 1, column: start.column + 1 }, end: { line: end.line + 1, column: end.column + 1 } },
  });
}
writeFileSync(new URL(reportFile, `file://${root}`), JSON.stringify({ schemaVersion: '1', thresholds: { high: 80, low: 60 }, files }));

const result = score(readReport(reportFile), equivalent);
const args = process.argv.slice(2);
if (!all && !shard && match === undefined)
  writeSurvivors(result, args.length ? `npm run mutation -- ${args.join(' ')}` : 'npm run mutation');
for (const key of result.survivors) console.log(`survived: ${key}`);
console.log(
  `mutation: ${result.total} judged, ${result.killed} killed, ${result.survivors.length} survived (${chosen.filter((m) => statuses.get(m.id) === 'NoCoverage').length} reached by no area), ${result.equivalent} equivalent, ${result.notJudged} not judged, in ${elapsed()}`,
);
console.log(
  `mutation: ${killedOnlyByOracle(result.killedIds, readKills(killsFile))} of the ${result.killed} killed only by oracle.* checks (the checks of each kill: ${killsFile.slice(root.length)})`,
);
for (const line of stale) console.log(line);
console.log(result.line);
