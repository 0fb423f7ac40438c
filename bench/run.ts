// `npm run bench`: every benchmark of BENCHMARKS.md in one run, ours beside Prism (and a bare
// Express app), printed as markdown and saved under bench/results/.
//   npm run bench                       # everything, one section after another
//   npm run bench -- --only hot-path    # one section: hot-path, throughput, uploads, scale, processing, extraction,
//                                       #   extraction-process, hostile-memory, cold-start, proxy, msw-seed
//   npm run bench -- --quick            # shorter runs and smaller scale, to try the harness
//   npm run bench -- --only hot-path --only hostile-memory --baseline ../docproc-kit-before   # beside another built checkout
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Table, toMarkdown } from './lib/report.js';
import { seedStore } from './lib/seed.js';
import { coldStart } from './sections/cold-start.js';
import { extraction } from './sections/extraction.js';
import { extractionProcess } from './sections/extraction-process.js';
import { hostileMemory } from './sections/hostile-memory.js';
import { hotPath } from './sections/hot-path.js';
import { mswSeed } from './sections/msw-seed.js';
import { processing } from './sections/processing.js';
import { proxy } from './sections/proxy.js';
import { scale } from './sections/scale.js';
import { throughput } from './sections/throughput.js';
import { uploads } from './sections/uploads.js';

const { values: args } = parseArgs({
  options: { only: { type: 'string', multiple: true }, quick: { type: 'boolean', default: false }, baseline: { type: 'string' } },
});
const wanted = (name: string) => !args.only || args.only.includes(name);
const durationSec = args.quick ? 3 : 10;

const root = new URL('../', import.meta.url);
const version = async (pkg: string) =>
  (JSON.parse(await readFile(new URL(`node_modules/${pkg}/package.json`, root), 'utf8')) as { version: string }).version;

// The benchmark runs the compiled CLI, as an installed user would.
execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });

const workDir = await mkdtemp(join(tmpdir(), 'docproc-bench-'));
const tables: Table[] = [];
try {
  if (wanted('hot-path')) tables.push(...(await hotPath({ workDir, rounds: 3, seconds: args.quick ? 3 : 10, baseline: args.baseline })));
  if (wanted('throughput')) {
    const dataDir = join(workDir, 'throughput');
    await seedStore(dataDir, 10_000);
    tables.push(...(await throughput({ dataDir, durationSec })));
  }
  if (wanted('uploads')) tables.push(...(await uploads({ workDir })));
  if (wanted('scale'))
    tables.push(
      ...(await scale({ workDir, sizes: args.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000], durationSec: args.quick ? 2 : 5 })),
    );
  if (wanted('processing')) tables.push(...(await processing({ workDir })));
  if (wanted('extraction')) tables.push(...(await extraction({ workDir, runs: args.quick ? 1 : 5 })));
  if (wanted('extraction-process')) tables.push(...(await extractionProcess({ runs: args.quick ? 1 : 5 })));
  if (wanted('hostile-memory')) tables.push(...(await hostileMemory({ workDir, baseline: args.baseline })));
  if (wanted('proxy')) tables.push(...(await proxy({ workDir, rounds: 3, seconds: args.quick ? 3 : 10 })));
  if (wanted('cold-start')) tables.push(...(await coldStart({ workDir, runs: args.quick ? 2 : 5 })));
  if (wanted('msw-seed')) tables.push(...(await mswSeed({ runs: args.quick ? 2 : 5 })));
} finally {
  await rm(workDir, { recursive: true, force: true });
}

const machine =
  `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
  `express ${await version('express')}, @stoplight/prism-cli ${await version('@stoplight/prism-cli')}, autocannon ${await version('autocannon')}`;
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const report = `Run ${new Date().toISOString()} on ${machine}.\nCommand: \`${command}\`\n\n${toMarkdown(tables)}\n`;
console.log(`\n${report}`);
const resultsDir = new URL('bench/results/', root);
await mkdir(resultsDir, { recursive: true });
await writeFile(new URL('latest.md', resultsDir), report);
await writeFile(new URL('latest.json', resultsDir), JSON.stringify({ machine, command, tables }, null, 2));
