import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { until } from '@docproc-kit/test-support/reference-server.js';
import { DataDirLockedError, prepareDataDir } from 'docproc-kit/store/lowdb/data-dir.js';
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
  const child = spawn(process.execPath, ['--conditions=docproc-source', '--import', 'tsx', 'test/support/lock-contender.ts'], {
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

/** The state letter of a process in /proc/<pid>/stat (R, S, Z, ...), or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2)[0];
  } catch {
    return undefined;
  }
}

describe('a lock held by a process that was killed but not yet reaped (a zombie)', () => {
  it('is free: the data dir is taken at once, and a lock of a live process still is not', async () => {
    // The shell starts a sleep in the background, prints its pid, then becomes a sleep itself, which
    // never reaps its child: the killed background sleep stays a zombie until the parent ends.
    const parent = spawn('sh', ['-c', 'sleep 600 & echo $!; exec sleep 600'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const dirs: string[] = [];
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
      // Killed only once the shell has become the sleep: the shell itself would reap it.
      const parentIsSleep = () => readFileSync(`/proc/${parent.pid}/comm`, 'latin1').trim() === 'sleep';
      expect(await until(parentIsSleep, 5_000)).toBe(true);
      process.kill(pid, 'SIGKILL');
      expect(await until(() => stateOf(pid) === 'Z', 5_000)).toBe(true);
      // kill(pid, 0) still succeeds on it: the old check took it as alive.
      expect(() => process.kill(pid, 0)).not.toThrow();

      const zombieDir = await mkdtemp(join(tmpdir(), 'docproc-lock-'));
      dirs.push(zombieDir);
      await writeFile(join(zombieDir, 'server.lock'), String(pid));
      const { release } = await prepareDataDir(zombieDir);
      expect(readFileSync(join(zombieDir, 'server.lock'), 'utf8')).toBe(String(process.pid));
      await release();

      const liveDir = await mkdtemp(join(tmpdir(), 'docproc-lock-'));
      dirs.push(liveDir);
      await writeFile(join(liveDir, 'server.lock'), String(parent.pid));
      await expect(prepareDataDir(liveDir)).rejects.toBeInstanceOf(DataDirLockedError);
    } finally {
      parent.kill('SIGKILL');
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    }
  }, 30_000);
});
