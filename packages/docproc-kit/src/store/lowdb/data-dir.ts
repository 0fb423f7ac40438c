import { mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { acquirePidLock, isAlive } from '../../locks/pid-lock.js';

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
  /** Upload temp files, in a folder per process (see scratch-dir.ts). */
  tmpDir: string;
  lockFile: string;
}

// Temp files of writeFileDurably (durable-fs.ts) and of acquirePidLock (pid-lock.ts).
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

/**
 * Creates the data dir's folders, takes its lock and sweeps the temp files of interrupted durable writes (`.<name>.<pid>.<n>.tmp` beside the db, records and texts), and
 * lock temp files of dead processes. Uploads in flight are each process's own (see scratch-dir.ts).
 * @example const { layout, release } = await prepareDataDir('.docproc');
 */
export async function prepareDataDir(dataDir: string): Promise<{ layout: DataDirLayout; release: () => Promise<void> }> {
  const layout = layoutOf(dataDir);
  await mkdir(layout.root, { recursive: true });
  const release = await acquirePidLock(layout.lockFile, (pid) => new DataDirLockedError(layout.lockFile, pid));
  try {
    await Promise.all([layout.recordsDir, layout.filesDir, layout.textsDir, layout.tmpDir].map((dir) => mkdir(dir, { recursive: true })));
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
