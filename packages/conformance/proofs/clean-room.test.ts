// The suite judged by an implementation it never shaped: the clean-room service must pass the full profile.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedChecks, runSuite } from './run-suite.js';

const entry = fileURLToPath(new URL('./clean-room/serve-clean-room.ts', import.meta.url));
const KEYS = ['clean-room-key-a', 'clean-room-key-b'];

let child: ChildProcess;
let baseUrl = '';

beforeAll(async () => {
  child = spawn(
    process.execPath,
    [
      '--conditions=docproc-source',
      '--import',
      'tsx',
      entry,
      '--port',
      '0',
      '--api-key',
      KEYS[0]!,
      '--api-key',
      KEYS[1]!,
      '--max-file-bytes',
      '26214400',
      '--max-files',
      '20',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`the clean-room service exited with ${code}`)));
  });
}, 30_000);

afterAll(async () => {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}, 10_000);

describe('an independent implementation written from the contract alone', () => {
  it('passes the full profile with both keys: no failing check', async () => {
    const run = await runSuite(
      [
        '--base-url',
        baseUrl,
        '--api-key',
        KEYS[0]!,
        '--second-api-key',
        KEYS[1]!,
        '--profile',
        'full',
        '--max-files',
        '20',
        '--max-file-bytes',
        '26214400',
      ],
      { timeoutMs: 240_000 },
    );
    expect(failedChecks(run), run.output).toEqual([]);
    expect(run.code, run.output).toBe(0);
  }, 300_000);
});
