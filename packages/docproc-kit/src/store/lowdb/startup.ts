import { access, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { UploadKey } from '@docproc-kit/reference/store/catalog.js';
import type { DataDirLayout } from './data-dir.js';
import { MissingFileError } from './durable-fs.js';
import { type Segments, segmentOf } from './segments.js';

// The checks and mends of opening a store (store.ts): what a data dir must hold, what can be swept.

/** An upload remembered in db.json before keys moved into the records files: its whole 202 body. */
export interface LegacyIdempotencyRecord {
  tenant: string;
  key: string;
  fingerprint: string;
  expires_at: string;
  response: { documents?: Array<{ document_id?: unknown }> };
}

/**
 * Unexpired keys of an old db.json whose documents exist (consecutive ids, as one upload's are)
 * become upload keys in the records files (still to be written); returns them.
 */
export function moveLegacyKeys(legacy: LegacyIdempotencyRecord[], segments: Segments, now: string): UploadKey[] {
  const byId = new Map(segments.loaded.map((r) => [r.id, r]));
  const moved: UploadKey[] = [];
  for (const entry of legacy) {
    const ids = (entry.response?.documents ?? []).map((d) => d?.document_id);
    const first = ids[0];
    const consecutive = typeof first === 'number' && ids.every((id, i) => id === first + i && byId.get(id)?.tenant === entry.tenant);
    if (entry.expires_at <= now || !consecutive) continue;
    const upload = {
      tenant: entry.tenant,
      key: entry.key,
      fingerprint: entry.fingerprint,
      expires_at: entry.expires_at,
      first_id: first,
      count: ids.length,
    };
    segments.putUpload(upload);
    moved.push(upload);
  }
  return moved;
}

/** Whether a path exists. */
export const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Refuses (MissingFileError) a data dir that holds documents but no db file: the db file holds the
 * tenant salt, and a fresh one would make every stored document invisible.
 */
export async function refuseLostDb(layout: DataDirLayout): Promise<void> {
  const held = [];
  for (const dir of [layout.recordsDir, layout.filesDir, layout.textsDir]) {
    const names = await readdir(dir);
    if (names.length > 0) held.push(`${join(dir, names[0]!)}${names.length > 1 ? ` and ${names.length - 1} more` : ''}`);
  }
  if (held.length > 0) {
    throw new MissingFileError(
      layout.dbFile,
      `the data dir still holds documents (${held.join('; ')}), and a new db file would hide them from every tenant. ` +
        'Restore db.json, or move the whole data dir away to start empty',
    );
  }
}

/**
 * Files without a record, to be swept: left over from a crash between moving an upload in and
 * recording it, or between removing a record and its files. Only a records file on disk (or a
 * block never listed, whose uploads were never acknowledged) proves a record is gone; a file of
 * an unknown block in a data dir older than the block list means a records file went missing,
 * and start-up stops.
 */
export async function findOrphans(layout: DataDirLayout, ids: Set<number>, present: Set<number>, unlisted: boolean): Promise<string[]> {
  const orphans: string[] = [];
  const scan = async (dir: string, idOf: (name: string) => number) => {
    for (const name of await readdir(dir)) {
      const id = idOf(name);
      if (ids.has(id)) continue;
      if (unlisted && Number.isSafeInteger(id) && id >= 1 && !present.has(segmentOf(id))) {
        throw new MissingFileError(
          join(layout.recordsDir, `${segmentOf(id)}.json`),
          `${join(dir, name)} has no record and would have it there`,
        );
      }
      orphans.push(join(dir, name));
    }
  };
  await scan(layout.filesDir, (name) => (/^\d+$/.test(name) ? Number(name) : NaN));
  await scan(layout.textsDir, (name) => (/^\d+\.txt$/.test(name) ? Number.parseInt(name, 10) : NaN));
  return orphans;
}
