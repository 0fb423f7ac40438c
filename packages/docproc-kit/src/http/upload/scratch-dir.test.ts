import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@docproc-kit/test-support/reference-server.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareScratchDir } from './scratch-dir.js';

// Scratch folders of processes sharing one tmp/ (replicas on one --data-dir), on a real disk, with
// real dead and zombie processes as the owners of what start-up finds.
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'docproc-scratch-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A folder under root owned (by its lock) by `pid`, with an upload in flight in it. */
async function leftBy(name: string, pid: number | string): Promise<void> {
  await mkdir(join(root, name));
  await writeFile(join(root, name, 'a.part'), 'half an upload');
  await writeFile(join(root, `${name}.lock`), String(pid));
}

describe('a scratch folder', () => {
  it('is its own, locked by its pid; another one made beside it touches nothing of it', async () => {
    const first = await prepareScratchDir(root);
    await writeFile(join(first.dir, 'in-flight.part'), 'bytes');
    const second = await prepareScratchDir(root);
    expect(second.dir).not.toBe(first.dir);
    expect(await readdir(first.dir)).toEqual(['in-flight.part']);
    expect(await readFile(`${first.dir}.lock`, 'utf8')).toBe(String(process.pid));
    await second.release();
    await first.release();
    expect(await readdir(root)).toEqual([]);
  });

  it('is not swept while its owner lives, even one that is another process', async () => {
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await leftBy('alive', live.pid!);
      const scratch = await prepareScratchDir(root);
      expect(await readdir(join(root, 'alive'))).toEqual(['a.part']);
      await scratch.release();
    } finally {
      live.kill('SIGKILL');
    }
  });

  it.each([
    ['a dead process', async () => String(spawnSync(process.execPath, ['-e', ''], { timeout: 10_000 }).pid)],
    ['no pid at all', async () => 'garbage'],
  ])('start-up sweeps the folder of %s, with its lock', async (_owner, pidOf) => {
    await leftBy('gone', await pidOf());
    const scratch = await prepareScratchDir(root);
    expect((await readdir(root)).sort()).toEqual([scratch.dir.slice(root.length + 1), `${scratch.dir.slice(root.length + 1)}.lock`].sort());
    await scratch.release();
  });

  it('start-up sweeps the folder of a zombie (killed, not yet reaped by its parent)', async () => {
    // The shell starts a child, then becomes `sleep`, which never waits for it: killed, the child stays a
    // zombie until the parent ends. It is killed only once the shell is gone, or the shell could reap it.
    const parent = spawn('sh', ['-c', 'sleep 60 & exec sleep 60']);
    try {
      const self = `/proc/${parent.pid}`;
      const children = () => readFile(`${self}/task/${parent.pid}/children`, 'latin1').catch(() => '');
      const execed = async () =>
        (await readFile(`${self}/comm`, 'latin1').catch(() => '')).trim() === 'sleep' && (await children()).trim() !== '';
      expect(await until(execed, 5_000)).toBe(true);
      const pid = Number((await children()).trim().split(/\s+/)[0]);
      process.kill(pid, 'SIGKILL');
      const zombie = () => readFile(`/proc/${pid}/stat`, 'latin1').then((s) => s.slice(s.lastIndexOf(')') + 2)[0] === 'Z');
      expect(await until(zombie, 5_000)).toBe(true);
      await leftBy('zombie', pid);
      const scratch = await prepareScratchDir(root);
      expect(await readdir(root)).not.toContain('zombie');
      await scratch.release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('start-up sweeps folders left without a lock and loose upload files of versions that shared tmp/', async () => {
    await mkdir(join(root, 'orphan'));
    await writeFile(join(root, 'legacy.part'), 'half an upload');
    const scratch = await prepareScratchDir(root);
    expect(await readdir(root)).not.toContain('orphan');
    expect(await readdir(root)).not.toContain('legacy.part');
    await scratch.release();
  });
});
