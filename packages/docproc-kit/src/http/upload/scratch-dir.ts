import { randomUUID } from 'node:crypto';
import { access, mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { acquirePidLock, isAlive, isLockStale } from '../../locks/pid-lock.js';

/** The folder this process receives uploads into, and how to let go of it. */
export interface ScratchDir {
  /** e.g. /data/tmp/4242-1f2e3d4c: this process's own, no other touches it while it lives. */
  dir: string;
  /** Removes the folder (with any upload still in it) and its lock. */
  release(): Promise<void>;
}

// `<folder>.lock` beside each process's folder, and the lock's own temp file while it is being taken.
const LOCK = /^(.+)\.lock$/;
const LOCK_TEMP = /^.+\.lock\.(\d+)\.[0-9a-f-]+\.tmp$/;

/**
 * Makes this process's folder for uploads in flight under `root`: `<root>/<pid>-<random>/`, locked by
 * `<root>/<pid>-<random>.lock` holding the pid (taken before the folder is made, removed after it).
 * Processes sharing `root` (replicas on one --data-dir) never touch each other's uploads: start-up
 * sweeps only the folders whose owner is gone (a dead pid or a zombie, see pid-lock.ts), folders left
 * with no lock (a sweep cut short), and loose `.part` files of versions that shared one folder.
 * @example const scratch = await prepareScratchDir('.docproc/tmp'); createUploadReceiver(scratch.dir, limits);
 */
export async function prepareScratchDir(root: string): Promise<ScratchDir> {
  const base = resolve(root);
  await mkdir(base, { recursive: true });
  const name = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const unlock = await acquirePidLock(
    join(base, `${name}.lock`),
    (pid) => new Error(`${base}: scratch folder ${name} is held by process ${pid}`),
  );
  const dir = join(base, name);
  try {
    await mkdir(dir);
    await sweep(base, name);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    await unlock();
    throw error;
  }
  return {
    dir,
    release: async () => {
      await rm(dir, { recursive: true, force: true });
      await unlock();
    },
  };
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

// What other processes left behind and no longer own. A folder whose lock is stale goes before its
// lock, so a folder without one is always a leftover.
async function sweep(base: string, own: string): Promise<void> {
  const names = await readdir(base, { withFileTypes: true });
  const locked = new Set(names.map((entry) => LOCK.exec(entry.name)?.[1]).filter((n) => n !== undefined));
  for (const entry of names) {
    const path = join(base, entry.name);
    const folder = LOCK.exec(entry.name)?.[1];
    if (folder !== undefined && folder !== own && (await isLockStale(path))) {
      await rm(join(base, folder), { recursive: true, force: true });
      await rm(path, { force: true });
    } else if (entry.isDirectory() && entry.name !== own && !locked.has(entry.name) && !(await exists(`${path}.lock`))) {
      await rm(path, { recursive: true, force: true });
    } else if (entry.isFile() && entry.name.endsWith('.part')) {
      await rm(path, { force: true });
    } else {
      const pid = LOCK_TEMP.exec(entry.name)?.[1];
      if (pid !== undefined && !isAlive(Number(pid))) await rm(path, { force: true });
    }
  }
}
