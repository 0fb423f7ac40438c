import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// One address (127.0.0.1) holds 520 connections to a real `docproc serve` that send nothing or half
// a header, each reopened as soon as it is closed, while another address (127.0.0.2; all of 127.0.0.0/8 is loopback on
// Linux) lists its documents for 8 s on a new connection each time. Before the per-address cap the
// other address was served 1 time in 75. The flood is a process of its own, at the lowest priority
// (nice 19): it reconnects as fast as it gets the CPU, which on a 2-core machine running other tests
// would otherwise starve them.
const root = fileURLToPath(new URL('../../', import.meta.url));
const FLOOD = 520;
const WATCH_MS = 8_000;
let dataDir: string;
let server: RunningCli;
let flood: ChildProcess;
let floodOutput = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docproc-fairness-'));
  server = await startCli(['serve', '--data-dir', dataDir, '--log-level', 'silent'], { readyPath: '/openapi.json' });
  flood = spawn(
    'nice',
    [
      '-n',
      '19',
      process.execPath,
      '--conditions=docproc-source',
      '--import',
      'tsx',
      'test/support/idle-flood.ts',
      String(server.port),
      String(FLOOD),
      '127.0.0.1',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  flood.stdout!.on('data', (chunk: Buffer) => (floodOutput += chunk.toString()));
  // The flood is under way once it has opened more connections than the server keeps for one address.
  while (!/opened (\d{3,})/.test(floodOutput) || Number(/opened (\d+)\n[^\n]*$/.exec(floodOutput)?.[1] ?? 0) <= 200) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 60_000);
afterAll(async () => {
  flood?.kill('SIGKILL');
  await server?.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

/** A list from 127.0.0.2 on a new connection: true when answered 200 within a second. */
function listFromOtherAddress(): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/api/v1/documents/get_documents',
        localAddress: '127.0.0.2',
        agent: false,
        headers: { 'x-api-key': 'docproc-dev-key' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      },
    );
    req.setTimeout(1_000, () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

describe('520 idle connections from one address', () => {
  it('leave another address served at least 90% of the time over 8 s', async () => {
    const outcomes: boolean[] = [];
    const until = Date.now() + WATCH_MS;
    while (Date.now() < until) {
      outcomes.push(await listFromOtherAddress());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const opened = Number(/opened (\d+)\n[^\n]*$/.exec(floodOutput)?.[1]);
    const served = outcomes.filter(Boolean).length / outcomes.length;
    console.log(`fairness: served ${outcomes.filter(Boolean).length} of ${outcomes.length}; the flood opened ${opened} connections`);
    expect(outcomes.length).toBeGreaterThan(50);
    // The flood kept going: far more connections opened than it holds at once.
    expect(opened).toBeGreaterThan(FLOOD);
    expect(served).toBeGreaterThanOrEqual(0.9);
  }, 40_000);
});
