import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

let tempCounter = 0;

async function sync(path: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Flushes a directory's entries to disk, so a rename or unlink inside it survives a power cut
 * (fsync on the file alone does not persist its name).
 */
export const fsyncDir = (dir: string): Promise<void> => sync(dir, 'r');

/** Flushes a file's bytes to disk. */
export const fsyncFile = (path: string): Promise<void> => sync(path, 'r+');

/**
 * Replaces a file atomically and durably: write a temp file beside it, fsync it, rename it over the
 * target, fsync the directory (unless the caller syncs it once for many files). A crash leaves either
 * the old or the new content, never a mix.
 * @example await writeFileDurably('/data/texts/7.txt', 'PELICAN');
 */
export async function writeFileDurably(path: string, data: string | Uint8Array, { syncDir = true } = {}): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${++tempCounter}.tmp`);
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (syncDir) await fsyncDir(dirname(path));
}

/** A lowdb adapter for one JSON file whose writes are durable and coalesced. */
export interface DurableJsonFile<T> extends Adapter<T> {
  /** How many times the file has actually been written (concurrent writes count once). */
  readonly writes: number;
  /** Resolves when no write is in flight or waiting. */
  settled(): Promise<void>;
}

/** The db file exists but is not a valid JSON document. */
export class CorruptFileError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(
      `${path} is not a valid docproc data file (${reason}). It was left untouched: repair it, or restore it from a backup, and start again.`,
    );
    this.name = 'CorruptFileError';
  }
}

/** A data file the data dir needs is gone; start-up stops rather than lose what it held. */
export class MissingFileError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path} is missing: ${reason}. Nothing was changed: restore it (from a backup) and start again.`);
    this.name = 'MissingFileError';
  }
}

interface Waiter {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function waiter(): Waiter {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A lowdb adapter that writes through {@link writeFileDurably}. While one write is in flight, every
 * further write() joins a single follow-up write of the newest data, so N concurrent callers cost
 * at most two file writes, and each caller resolves only once its own change is on disk.
 * @example const db = new Low(createDurableJsonFile<Data>('/data/db.json'), defaults);
 */
export function createDurableJsonFile<T>(path: string): DurableJsonFile<T> {
  let writes = 0;
  let inFlight: Promise<void> | undefined;
  let next: Waiter | undefined;
  let latest: T | undefined;

  // Serialized when the write starts, not when it was asked for, so the follow-up write carries
  // every change made by the callers that joined it.
  const writeNow = async (): Promise<void> => {
    const text = JSON.stringify(latest);
    writes += 1;
    await writeFileDurably(path, text);
  };

  const start = (): Promise<void> => {
    const run = writeNow();
    inFlight = run.finally(() => {
      inFlight = undefined;
      const pending = next;
      next = undefined;
      if (pending) start().then(pending.resolve, pending.reject);
    });
    // The chained promise above handles the rejection for the follow-up; callers get it from `run`.
    inFlight.catch(() => {});
    return run;
  };

  return {
    get writes() {
      return writes;
    },
    async read() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw new CorruptFileError(path, (error as Error).message);
      }
      try {
        return JSON.parse(text) as T;
      } catch (error) {
        throw new CorruptFileError(path, (error as Error).message);
      }
    },
    write(data) {
      latest = data;
      if (!inFlight) return start();
      next ??= waiter();
      return next.promise;
    },
    async settled() {
      while (inFlight) await inFlight.catch(() => {});
    },
  };
}
