import { rm } from 'node:fs/promises';
import type { UploadRejection } from '../../http/upload/rejection.js';
import type { ReceivedFile, ReceivedUpload } from '../../http/upload/upload-parser.js';
import type { DocumentRecord } from '../model.js';
import type { Processor } from '../processing/processor.js';
import type { Remember, Store } from '../store/store.js';
import { fingerprint, IDEMPOTENCY_TTL_MS } from './idempotency.js';

/**
 * Every way an upload can end, as a value; the route alone turns it into HTTP. Documents are as
 * the upload made them (a replay shows them as they were then, not as they are now).
 */
export type UploadOutcome =
  | { kind: 'created'; documents: DocumentRecord[] }
  | { kind: 'replayed'; documents: DocumentRecord[] }
  | { kind: 'key_reused'; key: string }
  | { kind: 'key_in_use'; key: string }
  | { kind: 'rejected'; rejection: UploadRejection }
  | { kind: 'abandoned' };

/** One upload to decide. */
export interface UploadRequest {
  tenant: string;
  idempotencyKey?: string;
  /**
   * Reads the body. Called only once the key is claimed: a repeat of an upload still being
   * received is refused before a byte of its own body is stored.
   */
  receive: () => Promise<ReceivedUpload>;
  /**
   * Aborted once the upload must not be stored any more: its client went away, or the server's
   * shutdown grace period ended, so no answer would reach the client. Checked right before the store
   * commits; an upload stopped by it is `abandoned` and leaves nothing behind.
   */
  signal?: AbortSignal;
}

/** What the upload service needs. */
export interface UploadServiceDeps {
  store: Store;
  processor: Pick<Processor, 'submit'>;
  clock: () => Date;
}

/** Decides uploads. */
export interface UploadService {
  /**
   * Receives the files and stores them as new documents, or replays the earlier upload under the
   * same key and tenant; anything but `created` leaves no file and no record behind.
   */
  upload(request: UploadRequest): Promise<UploadOutcome>;
}

const dropAll = (files: ReceivedFile[]) => Promise.all(files.map((f) => rm(f.tempPath, { force: true })));

/**
 * The one place an upload's outcome is decided: the key in use, the body rejected, a replay, a
 * key reused for other files, or new documents (stored, remembered under the key, then processed).
 * @example const outcome = await createUploadService({ store, processor, clock }).upload({ tenant, idempotencyKey, receive });
 */
export function createUploadService({ store, processor, clock }: UploadServiceDeps): UploadService {
  // Keys whose first upload is still being received or stored, by tenant and key. The store only
  // knows a key once its documents are written; a repeat before that is refused, not stored twice.
  const inFlight = new Set<string>();

  async function decide(tenant: string, key: string | undefined, received: ReceivedUpload, signal?: AbortSignal): Promise<UploadOutcome> {
    if (received.kind === 'rejected') return received;
    const { files } = received;
    const now = clock();
    if (key !== undefined) {
      const earlier = store.idempotent(tenant, key, now.toISOString());
      if (earlier) {
        await dropAll(files);
        return earlier.fingerprint === fingerprint(files)
          ? { kind: 'replayed', documents: earlier.documents }
          : { kind: 'key_reused', key };
      }
    }
    const remember: Remember | undefined =
      key === undefined
        ? undefined
        : { key, fingerprint: fingerprint(files), expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString() };
    if (signal?.aborted) {
      await dropAll(files);
      return { kind: 'abandoned' };
    }
    const documents = await store.insert(
      files.map((f) => ({ tenant, filename: f.filename, content_type: f.contentType, size_bytes: f.size, tempPath: f.tempPath })),
      now.toISOString(),
      remember,
    );
    processor.submit(documents);
    return { kind: 'created', documents };
  }

  return {
    async upload({ tenant, idempotencyKey: key, receive, signal }) {
      if (key === undefined) return decide(tenant, undefined, await receive(), signal);
      const slot = `${tenant}\n${key}`;
      if (inFlight.has(slot)) return { kind: 'key_in_use', key };
      inFlight.add(slot);
      try {
        return await decide(tenant, key, await receive(), signal);
      } finally {
        inFlight.delete(slot);
      }
    },
  };
}
