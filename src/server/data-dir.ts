import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Two servers writing one db file would lose each other's writes, so the dir is locked by pid. A
// lock left by a killed process (or by our own pid, as after a container restart as PID 1) is stale.
// Lock files this process holds: our own pid in a lock file is stale unless it is listed here.
const heldHere = new Set<string>();

async function acquireLock(lockFile: string): Promise<() => Promise<void>> {
  if (heldHere.has(lockFile)) throw new DataDirLockedError(lockFile, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      heldHere.add(lockFile);
      return async () => {
        heldHere.delete(lockFile);
        await rm(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(lockFile, pid);
      await rm(lockFile, { force: true });
    }
  }
  throw new Error(`${lockFile}: could not take the data dir lock`);
}

/**
 * Creates the data dir's folders, takes its lock and sweeps the temp files of interrupted uploads.
 * @example const { layout, release } = await prepareDataDir('.docproc');
 */
export async function prepareDataDir(dataDir: string): Promise<{ layout: DataDirLayout; release: () => Promise<void> }> {
  const layout = layoutOf(dataDir);
  await mkdir(layout.root, { recursive: true });
  const release = await acquireLock(layout.lockFile);
  try {
    await Promise.all([layout.recordsDir, layout.filesDir, layout.textsDir, layout.tmpDir].map((dir) => mkdir(dir, { recursive: true })));
    for (const name of await readdir(layout.tmpDir)) await rm(join(layout.tmpDir, name), { recursive: true, force: true });
  } catch (error) {
    await release();
    throw error;
  }
  return { layout, release };
}
