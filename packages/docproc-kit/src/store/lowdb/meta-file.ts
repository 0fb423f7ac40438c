import { CorruptFileError } from './durable-fs.js';
import type { LegacyIdempotencyRecord } from './startup.js';

/** The format tag of db.json. */
export const META_FORMAT = 'docproc-store/1';

/**
 * What db.json holds: the store's metadata. Document records live in records/ (one lowdb file per block
 * of ids) and extracted text in texts/, so no write grows with the store.
 */
export interface StoreMeta {
  format: typeof META_FORMAT;
  next_id: number;
  /** Secret that makes tenant ids irreversible; made once per data dir. */
  tenant_salt: string;
  /**
   * Where uploads remembered under an Idempotency-Key used to be kept, whole 202 bodies included; now they
   * live in the records files (see segments.ts). Read once to move them, then dropped.
   */
  idempotency?: LegacyIdempotencyRecord[];
  /**
   * The blocks of ids whose records file exists (see segments.ts). A block is listed once its file is on
   * disk and before any upload in it is acknowledged, so a listed file that is gone was lost, and start-up
   * stops instead of treating its uploads as orphans. Absent in data dirs made before it was added.
   */
  segments?: number[];
}

/** db.json as read, checked; a {@link CorruptFileError} naming `path` and what is wrong otherwise. */
export function checkMeta(data: unknown, path: string): StoreMeta {
  const fail = (reason: string): never => {
    throw new CorruptFileError(path, reason);
  };
  if (typeof data !== 'object' || data === null) return fail('not a JSON object');
  const d = data as Partial<StoreMeta>;
  if (d.format !== META_FORMAT) fail(`"format" is ${JSON.stringify(d.format)}, expected "${META_FORMAT}"`);
  if (!Number.isSafeInteger(d.next_id) || (d.next_id as number) < 1) fail('"next_id" is not a positive integer');
  if (typeof d.tenant_salt !== 'string' || d.tenant_salt.length < 16) fail('"tenant_salt" is missing');
  if (d.idempotency !== undefined && !Array.isArray(d.idempotency)) fail('"idempotency" is not an array');
  if (d.segments !== undefined && !(Array.isArray(d.segments) && d.segments.every((n) => Number.isSafeInteger(n) && n >= 0))) {
    fail('"segments" is not a list of records-file numbers');
  }
  return d as StoreMeta;
}
