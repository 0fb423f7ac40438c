import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Two real processes take one data dir's lock at the same moment, 30 times over: exactly one may
// win each time, whether the dir is fresh or holds a stale lock left by a process killed with -9.
const root = fileURLToPath(new URL('../../', import.meta.url));
const TRIALS = 30;

interface Contender {
  child: ChildProcess;
  send(line: string): Promise<string>;
}

function contender(): Contender {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/lock-contender.ts'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    child,
    async send(line) {
      child.stdin!.write(`${line}\n`);
      const next = await lines.next();
      return next.done ? 'exited' : next.value;
    },
  };
}

let contenders: Contender[];
beforeAll(async () => {
  contenders = [contender(), contender()];
  // Warm up: the first answer also waits for tsx to load the module.
  await Promise.all(contenders.map((c) => c.send('release')));
}, 60_000);
afterAll(() => {
  for (const c of contenders) c.child.kill();
});

async function trial(stale: boolean): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'docproc-lock-'));
  try {
    if (stale) {
      const dead = spawnSync(process.execPath, ['-e', '']).pid!;
      await writeFile(join(dir, 'server.lock'), String(dead));
    }
    const answers = await Promise.all(contenders.map((c) => c.send(`try ${dir}`)));
    await Promise.all(contenders.map((c, i) => (answers[i] === 'got' ? c.send('release') : undefined)));
    return answers;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the data-dir lock, taken by two processes at the same moment', () => {
  it.each([
    ['a fresh data dir', false],
    ['a stale lock from a killed process', true],
  ])(
    'goes to exactly one of them on %s, every one of 30 times',
    async (_what, stale) => {
      const outcomes: string[] = [];
      for (let i = 0; i < TRIALS; i++) outcomes.push((await trial(stale)).sort().join('+'));
      const twice = outcomes.filter((o) => o !== 'got+locked');
      expect(twice, `outcomes other than one winner: ${twice.join(', ')}`).toEqual([]);
    },
    120_000,
  );
});
