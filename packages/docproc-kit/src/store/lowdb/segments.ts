import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentRecord } from '@docproc-kit/reference/model.js';
import type { UploadKey } from '@docproc-kit/reference/store/catalog.js';
import { Low } from 'lowdb';
import { CorruptFileError, createDurableJsonFile, type DurableJsonFile } from './durable-fs.js';
import type { RecordCheck } from './record-check.js';

const FORMAT = 'docproc-records/1';

/**
 * Ids per records file. A write rewrites only the files whose records changed, so an upload costs
 * the same with 1,000 or 100,000 documents stored; a whole-store file would grow with every one.
 */
export const SEGMENT_SIZE = 1000;

// An upload remembered under its Idempotency-Key is kept in the records file of its first id, so
// remembering a key costs no write of its own and no write grows with the number of live keys.

/** What one records file holds: the records of one block of ids, and the keys of uploads that start in it. */
interface SegmentData {
  format: typeof FORMAT;
  documents: DocumentRecord[];
  uploads?: UploadKey[];
}

/** The document records, spread over one lowdb file per block of {@link SEGMENT_SIZE} ids. */
export interface Segments {
  /** Every record found on disk at open, in id order. */
  readonly loaded: DocumentRecord[];
  /** The blocks whose records file was found on disk at open. */
  readonly present: number[];
  /** Adds or replaces a record in memory; it reaches disk with the next `flush` of its id. */
  put(record: DocumentRecord): void;
  /** Forgets a record in memory; gone from disk with the next `flush` of its id. */
  remove(id: number): void;
  /** Every upload key found on disk at open. */
  readonly loadedUploads: UploadKey[];
  /** Adds or replaces an upload key in memory; it reaches disk with the next `flush` of `first_id`. */
  putUpload(upload: UploadKey): void;
  /** Forgets an upload key in memory; gone from disk with the next `flush` of its `first_id`. */
  removeUpload(upload: UploadKey): void;
  /** Writes the files holding these ids, durably; concurrent flushes of one file share writes. */
  flush(ids: Iterable<number>): Promise<void>;
  /** How many file writes happened (coalesced writes count once). */
  readonly writes: number;
  /** Resolves when no write is in flight. */
  settled(): Promise<void>;
}

/** The block of ids (and so the records file, `<block>.json`) an id belongs to. */
export const segmentOf = (id: number): number => Math.floor((id - 1) / SEGMENT_SIZE);

function checkSegment(data: unknown, path: string, segment: number, check: RecordCheck): SegmentData {
  const fail = (reason: string): never => {
    throw new CorruptFileError(path, reason);
  };
  if (typeof data !== 'object' || data === null) return fail('not a JSON object');
  const d = data as Partial<SegmentData>;
  if (d.format !== FORMAT) fail(`"format" is ${JSON.stringify(d.format)}, expected "${FORMAT}"`);
  if (!Array.isArray(d.documents)) fail('"documents" is not an array');
  const seen = new Set<number>();
  d.documents!.forEach((doc: unknown, i) => {
    const id = (doc as { id?: unknown } | null)?.id;
    const which = `record ${i + 1}${Number.isSafeInteger(id) ? ` (document ${String(id)})` : ''}`;
    if (!Number.isSafeInteger(id) || (id as number) < 1) fail(`${which}: "id" is not a positive integer`);
    if (segmentOf(id as number) !== segment) fail(`${which}: document ${String(id)} belongs in ${segmentOf(id as number)}.json`);
    if (seen.has(id as number)) fail(`${which}: document ${String(id)} appears twice`);
    seen.add(id as number);
    const problem = check(doc);
    if (problem) fail(`${which}: ${problem}`);
  });
  if (d.uploads !== undefined && !Array.isArray(d.uploads)) fail('"uploads" is not an array');
  (d.uploads ?? []).forEach((u: Partial<UploadKey> | null, i) => {
    const sane =
      typeof u?.tenant === 'string' &&
      typeof u.key === 'string' &&
      typeof u.fingerprint === 'string' &&
      typeof u.expires_at === 'string' &&
      Number.isSafeInteger(u.first_id) &&
      segmentOf(u.first_id!) === segment &&
      Number.isSafeInteger(u.count) &&
      u.count! >= 1;
    if (!sane) fail(`upload key ${i + 1} is damaged`);
  });
  return d as SegmentData;
}

/**
 * Opens every records file of `dir` (`<block>.json`), checking each record with `check`; a damaged
 * file is a {@link CorruptFileError} naming it and the record, and is left untouched.
 * @example const segments = await openSegments('.docproc/records', await recordCheck()); segments.loaded.length;
 */
export async function openSegments(dir: string, check: RecordCheck): Promise<Segments> {
  const files = new Map<
    number,
    { db: Low<SegmentData>; file: DurableJsonFile<SegmentData>; byId: Map<number, DocumentRecord>; uploads: Map<string, UploadKey> }
  >();
  const slotOf = (upload: UploadKey) => `${upload.tenant}\n${upload.key}`;
  const pathOf = (segment: number) => join(dir, `${segment}.json`);
  const fileFor = (segment: number) => {
    let entry = files.get(segment);
    if (!entry) {
      const file = createDurableJsonFile<SegmentData>(pathOf(segment));
      entry = { db: new Low<SegmentData>(file, { format: FORMAT, documents: [] }), file, byId: new Map(), uploads: new Map() };
      files.set(segment, entry);
    }
    return entry;
  };

  const loaded: DocumentRecord[] = [];
  const loadedUploads: UploadKey[] = [];
  const names = (await readdir(dir)).filter((name) => /^\d+\.json$/.test(name));
  await Promise.all(
    names.map(async (name) => {
      const segment = Number.parseInt(name, 10);
      const entry = fileFor(segment);
      await entry.db.read();
      entry.db.data = checkSegment(entry.db.data, pathOf(segment), segment, check);
      for (const record of entry.db.data.documents) entry.byId.set(record.id, record);
      for (const upload of entry.db.data.uploads ?? []) entry.uploads.set(slotOf(upload), upload);
      loaded.push(...entry.db.data.documents);
      loadedUploads.push(...(entry.db.data.uploads ?? []));
    }),
  );
  loaded.sort((a, b) => a.id - b.id);

  return {
    loaded,
    present: names.map((name) => Number.parseInt(name, 10)).sort((a, b) => a - b),
    put(record) {
      fileFor(segmentOf(record.id)).byId.set(record.id, record);
    },
    remove(id) {
      files.get(segmentOf(id))?.byId.delete(id);
    },
    loadedUploads,
    putUpload(upload) {
      fileFor(segmentOf(upload.first_id)).uploads.set(slotOf(upload), upload);
    },
    removeUpload(upload) {
      const uploads = files.get(segmentOf(upload.first_id))?.uploads;
      if (uploads?.get(slotOf(upload)) === upload) uploads.delete(slotOf(upload));
    },
    async flush(ids) {
      const segments = new Set<number>();
      for (const id of ids) segments.add(segmentOf(id));
      await Promise.all(
        [...segments].map((segment) => {
          const entry = fileFor(segment);
          // The file is written from the segment's live records, so a write that starts later
          // carries every change made before it, whichever caller asked for it.
          const documents = [...entry.byId.values()].sort((a, b) => a.id - b.id);
          entry.db.data =
            entry.uploads.size > 0 ? { format: FORMAT, documents, uploads: [...entry.uploads.values()] } : { format: FORMAT, documents };
          return entry.db.write();
        }),
      );
    },
    get writes() {
      let sum = 0;
      for (const { file } of files.values()) sum += file.writes;
      return sum;
    },
    async settled() {
      await Promise.all([...files.values()].map(({ file }) => file.settled()));
    },
  };
}
