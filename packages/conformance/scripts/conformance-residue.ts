// Counts what runs of `docproc conformance` leave on a target (the API has no delete): for each set of
// flags, a fresh reference server (`docproc serve` from dist/, real storage, real extraction) with two
// keys, the suite run twice against it (an empty account, then the same account again), and after each
// run the documents and bytes each key holds. docs/conformance.md ("Documents it creates") quotes its output.
// Usage: npm run build && npx tsx --conditions=docproc-source packages/conformance/scripts/conformance-residue.ts
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../docproc-kit/bin/docproc.js', import.meta.url));
const KEYS = ['residue-key', 'residue-second-key'];
// `limits` are the deployment's (docproc serve) and the suite's flags alike: the flags must say what the
// target really allows, or its boundary checks fail.
const setups = [
  {
    label: 'full, the CI flags (`--max-files 20 --max-file-bytes 26214400`)',
    args: [],
    limits: ['--max-files', '20', '--max-file-bytes', '26214400'],
  },
  { label: 'full, no limit flags', args: [], limits: [] },
  {
    label: 'full, a deployment limited to 5 files of 1 MiB, flags to match',
    args: [],
    limits: ['--max-files', '5', '--max-file-bytes', '1048576'],
  },
  { label: 'contract, no limit flags', args: ['--profile', 'contract'], limits: [] },
];

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function serve(dataDir: string, limits: string[]): Promise<{ baseUrl: string; child: ChildProcess }> {
  const port = await freePort();
  const args = [
    'serve',
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    '--log-level',
    'silent',
    ...limits,
    ...KEYS.flatMap((k) => ['--api-key', k]),
  ];
  const child = spawn(process.execPath, [cli, ...args], { stdio: 'ignore' });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const up = await fetch(`${baseUrl}/api/v1/documents/get_documents`).then(
      () => true,
      () => false,
    );
    if (up) return { baseUrl, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('docproc serve did not answer within 30 s');
}

async function holdings(baseUrl: string, key: string): Promise<{ documents: number; bytes: number; largest: number }> {
  let bytes = 0;
  let largest = 0;
  let documents = 0;
  for (let page = 1; ; page++) {
    const res = await fetch(`${baseUrl}/api/v1/documents/get_documents?limit=100&page=${page}`, { headers: { 'x-api-key': key } });
    const body = (await res.json()) as { documents: { size_bytes: number }[]; pagination: { total: number; total_pages: number } };
    documents = body.pagination.total;
    for (const d of body.documents) {
      bytes += d.size_bytes;
      largest = Math.max(largest, d.size_bytes);
    }
    if (page >= body.pagination.total_pages) return { documents, bytes, largest };
  }
}

const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
console.log('| Flags | Run | First key: documents, bytes (largest file) | Second key: documents, bytes |');
console.log('|---|---|---|---|');
for (const setup of setups) {
  const dataDir = await mkdtemp(join(tmpdir(), 'docproc-residue-'));
  const { baseUrl, child } = await serve(dataDir, setup.limits);
  let before = [
    { documents: 0, bytes: 0, largest: 0 },
    { documents: 0, bytes: 0, largest: 0 },
  ];
  try {
    for (const run of ['on an empty account', 'again, same account']) {
      const suite = spawn(
        process.execPath,
        [cli, 'conformance', '--base-url', baseUrl, '--api-key', KEYS[0]!, '--second-api-key', KEYS[1]!, ...setup.args, ...setup.limits],
        { stdio: 'ignore' },
      );
      const code = await exited(suite);
      const after = await Promise.all(KEYS.map((key) => holdings(baseUrl, key)));
      const [a, b] = after.map((h, i) => ({
        documents: h.documents - before[i]!.documents,
        bytes: h.bytes - before[i]!.bytes,
        largest: h.largest,
      }));
      console.log(
        `| ${setup.label} (exit ${code}) | ${run} | ${a!.documents}, ${kib(a!.bytes)} (${kib(a!.largest)}) | ${b!.documents}, ${kib(b!.bytes)} |`,
      );
      before = after;
    }
  } finally {
    child.kill('SIGTERM');
    await exited(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}
