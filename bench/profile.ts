// `npm run bench:profile -- [--path /api/v1/...] [--seconds 5]`: loads one path of the compiled
// server (10,000 documents stored) under --cpu-prof and prints the functions that used the most
// CPU, to find what a benchmark target misses by. The .cpuprofile is kept for Chrome DevTools.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measure } from './lib/load.js';
import { seedStore } from './lib/seed.js';
import { KEY_HEADERS, startReference } from './lib/targets.js';

const { values: args } = parseArgs({
  options: {
    path: { type: 'string', default: '/api/v1/documents/get_documents?limit=20' },
    seconds: { type: 'string', default: '5' },
    status: { type: 'string', default: '200' },
  },
});
execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const work = await mkdtemp(join(tmpdir(), 'docproc-profile-'));
const profileDir = join(process.cwd(), 'bench', 'results');
await seedStore(join(work, 'data'), 10_000);
const before = new Set(await readdir(profileDir).catch(() => []));
const server = await startReference(join(work, 'data'), ['--processing-delay-ms', '0'], ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
// One search first: it waits for the texts to load, so start-up work stays out of the profile's steady state.
await fetch(`${server.baseUrl}/api/v1/documents/get_documents?search=warm`, { headers: KEY_HEADERS });
const result = await measure({
  url: server.baseUrl + args.path,
  headers: KEY_HEADERS,
  expectStatus: Number(args.status),
  durationSec: Number(args.seconds),
});
await server.stop();
await rm(work, { recursive: true, force: true });

const file = (await readdir(profileDir)).find((name) => name.endsWith('.cpuprofile') && !before.has(name))!;
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
const profile = JSON.parse(await readFile(join(profileDir, file), 'utf8')) as { nodes: Node[] };
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const nameOf = ({ callFrame: { functionName, url, lineNumber } }: Node) =>
  `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(dist|src)\//, '$1/')}:${lineNumber + 1}`;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
// Inclusive time counts a function once per stack even when it recurses (Express's next()).
const walk = (node: Node, onStack: Set<string>): number => {
  let hits = node.hitCount;
  const name = nameOf(node);
  const fresh = !onStack.has(name);
  if (fresh) onStack.add(name);
  for (const child of node.children ?? []) hits += walk(nodes.get(child)!, onStack);
  if (fresh) {
    onStack.delete(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + hits);
  }
  self.set(name, (self.get(name) ?? 0) + node.hitCount);
  return hits;
};
total = walk(profile.nodes[0]!, new Set());
console.log(`${args.path}: ${Math.round(result.requestsPerSec)} req/s, p99 ${result.p99Ms} ms, ${result.unexpected} unexpected`);
console.log(`profile: bench/results/${file}\nself time, top 25:`);
for (const [where, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${where}`);
console.log('inclusive time of our code and middleware, top 25:');
const ours = [...inclusive].filter(([where]) => /^\S+ (dist\/|cors|pino-http|router|express)/.test(where));
for (const [where, hits] of ours.sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${where}`);
