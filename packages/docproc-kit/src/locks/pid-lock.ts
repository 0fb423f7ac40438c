import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type FileHandle, link, open, rename, rm, stat, writeFile } from 'node:fs/promises';

// A lock file holds the pid of the process that holds it: one server per data dir (lowdb), one
// process per upload scratch folder. Two servers writing one db file would lose each other's writes.

// A process killed but not yet reaped by its parent (a zombie, state Z in /proc/<pid>/stat; X while
// it is being reaped) still answers kill(pid, 0), but it runs no code and holds nothing. Where there
// is no /proc, only kill(pid, 0) is asked.
function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
  return state === 'Z' || state === 'X';
}

/** Whether process `pid` exists and runs (a zombie does not). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, run by another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

// A lock left by a killed process (a zombie included), or by our own pid (as after a container restart
// as PID 1), is stale. Lock files this process holds: our own pid in a lock file is stale unless it is listed here.
const heldHere = new Set<string>();

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The pid in a lock file and which file it is (its inode), read through one handle; undefined when it is gone. */
async function readLock(lockFile: string): Promise<{ pid: number; dev: number; ino: number } | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(lockFile, 'r');
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { dev, ino } = await handle.stat();
    return { pid: Number((await handle.readFile('utf8')).trim()), dev, ino };
  } finally {
    await handle.close();
  }
}

const isHeld = (lockFile: string, pid: number) => (pid === process.pid ? heldHere.has(lockFile) : isAlive(pid));

/**
 * Whether the process that wrote `lockFile` is gone (dead, a zombie, or a pid that is not one): what
 * it locked is nobody's. False when the lock file is gone too.
 * @example if (await isLockStale('/data/tmp/4242-1f2e.lock')) await rm('/data/tmp/4242-1f2e', { recursive: true });
 */
export async function isLockStale(lockFile: string): Promise<boolean> {
  const seen = await readLock(lockFile);
  if (!seen) return false;
  return !(Number.isInteger(seen.pid) && seen.pid > 0 && isHeld(lockFile, seen.pid));
}

/**
 * Takes a lock held by this process's pid; `lockedError(pid)` is thrown when a live process holds it.
 * Resolves to its release. The lock file appears with its pid already in it (a complete temp file is
 * hard-linked into place, which fails if a lock exists), so nobody ever reads an empty lock. A
 * stale lock is moved aside by rename, which only one contender can do to a given file; one that
 * finds it moved a lock a peer had just taken puts it back. (With three or more processes starting
 * at the same instant on a stale lock, that put-back can still lose to a third; two cannot collide.)
 */
export async function acquirePidLock(lockFile: string, lockedError: (pid: number) => Error): Promise<() => Promise<void>> {
  if (heldHere.has(lockFile)) throw lockedError(process.pid);
  const mine = `${lockFile}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(mine, String(process.pid));
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        await link(mine, lockFile);
        heldHere.add(lockFile);
        return async () => {
          heldHere.delete(lockFile);
          if ((await readLock(lockFile))?.pid === process.pid) await rm(lockFile, { force: true });
        };
      } catch (error) {
        if (code(error) !== 'EEXIST') throw error;
      }
      const seen = await readLock(lockFile);
      if (!seen) continue;
      const { pid } = seen;
      const valid = Number.isInteger(pid) && pid > 0;
      if (valid && isHeld(lockFile, pid)) throw lockedError(pid);
      const aside = `${lockFile}.${randomUUID()}.stale`;
      try {
        await rename(lockFile, aside);
      } catch (error) {
        if (code(error) === 'ENOENT') continue;
        throw error;
      }
      const moved = await stat(aside);
      if (moved.dev !== seen.dev || moved.ino !== seen.ino) await link(aside, lockFile).catch(() => {});
      await rm(aside, { force: true });
    }
    throw new Error(`${lockFile}: could not take the lock`);
  } finally {
    await rm(mine, { force: true });
  }
}
