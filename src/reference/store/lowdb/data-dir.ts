import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type FileHandle, link, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Where everything of one data dir lives. */
export interface DataDirLayout {
  root: string;
  /** The lowdb file with the store's metadata (next id, tenant salt, idempotent uploads). */
  dbFile: string;
  /** The lowdb files with the document records, one per block of ids (see store-segments.ts). */
  recordsDir: string;
  /** Uploaded bytes, one file per document, named by id. */
  filesDir: string;
  /** Extracted text, one file per completed document, named by id. */
  textsDir: string;
  /** Upload temp files; anything here at start-up belongs to an interrupted upload. */
  tmpDir: string;
  lockFile: string;
}

// Temp files of writeFileDurably (durable-fs.ts) and of acquireLock below.
const DURABLE_TEMP = /^\..+\.\d+\.\d+\.tmp$/;
const LOCK_TEMP = /^server\.lock\.(\d+)\.[0-9a-f-]+\.tmp$/;

/** Another live process holds the data dir. */
export class DataDirLockedError extends Error {
  constructor(lockFile: string, pid: number) {
    super(`${lockFile}: the data dir is in use by process ${pid}. Stop it, or use another --data-dir.`);
    this.name = 'DataDirLockedError';
  }
}

/** The file layout of a data dir (nothing is created). */
export function layoutOf(dataDir: string): DataDirLayout {
  const root = resolve(dataDir);
  return {
    root,
    dbFile: join(root, 'db.json'),
    recordsDir: join(root, 'records'),
    filesDir: join(root, 'files'),
    textsDir: join(root, 'texts'),
    tmpDir: join(root, 'tmp'),
    lockFile: join(root, 'server.lock'),
  };
}

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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, run by another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

// Two servers writing one db file would lose each other's writes, so the dir is locked by pid. A
// lock left by a killed process (a zombie included), or by our own pid (as after a container restart
// as PID 1), is stale.
// Lock files this process holds: our own pid in a lock file is stale unless it is listed here.
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

/**
 * Takes the lock. The lock file appears with its pid already in it (a complete temp file is
 * hard-linked into place, which fails if a lock exists), so nobody ever reads an empty lock. A
 * stale lock is moved aside by rename, which only one contender can do to a given file; one that
 * finds it moved a lock a peer had just taken puts it back. (With three or more processes starting
 * at the same instant on a stale lock, that put-back can still lose to a third; two cannot collide.)
 */
async function acquireLock(lockFile: string): Promise<() => Promise<void>> {
  if (heldHere.has(lockFile)) throw new DataDirLockedError(lockFile, process.pid);
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
      if (valid && (pid === process.pid ? heldHere.has(lockFile) : isAlive(pid))) throw new DataDirLockedError(lockFile, pid);
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
    throw new Error(`${lockFile}: could not take the data dir lock`);
  } finally {
    await rm(mine, { force: true });
  }
}

/**
 * Creates the data dir's folders, takes its lock and sweeps the temp files of interrupted uploads
 * and of interrupted durable writes (`.<name>.<pid>.<n>.tmp` beside the db, records and texts), and
 * lock temp files of dead processes.
 * @example const { layout, release } = await prepareDataDir('.docproc');
 */
export async function prepareDataDir(dataDir: string): Promise<{ layout: DataDirLayout; release: () => Promise<void> }> {
  const layout = layoutOf(dataDir);
  await mkdir(layout.root, { recursive: true });
  const release = await acquireLock(layout.lockFile);
  try {
    await Promise.all([layout.recordsDir, layout.filesDir, layout.textsDir, layout.tmpDir].map((dir) => mkdir(dir, { recursive: true })));
    for (const name of await readdir(layout.tmpDir)) await rm(join(layout.tmpDir, name), { recursive: true, force: true });
    // Holding the lock, no other server writes here: a durable write's temp file is a crash's leftover.
    for (const dir of [layout.root, layout.recordsDir, layout.textsDir]) {
      for (const name of await readdir(dir)) if (DURABLE_TEMP.test(name)) await rm(join(dir, name), { force: true });
    }
    for (const name of await readdir(layout.root)) {
      const pid = LOCK_TEMP.exec(name)?.[1];
      if (pid !== undefined && !isAlive(Number(pid))) await rm(join(layout.root, name), { force: true });
    }
  } catch (error) {
    await release();
    throw error;
  }
  return { layout, release };
}
