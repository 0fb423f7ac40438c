import type { ReceivedUpload, ReceiveOptions } from '../http/upload/received-upload.js';
import type { UploadRefusal } from '../http/upload/upload-refusal.js';
import type { DocumentRecord } from '../model.js';
import type { Processor } from '../processing/processor.js';
import type { DocumentStore } from '../store/document-store.js';
import { fingerprint, IDEMPOTENCY_TTL_MS } from './idempotency.js';

/**
 * Every way an upload can end, as a value; the route alone turns it into HTTP. Documents are as the
 * upload made them (a replay shows them as they were then, not as they are now).
 */
export type UploadOutcome =
  | { kind: 'created'; documents: DocumentRecord[] }
  | { kind: 'replayed'; documents: DocumentRecord[] }
  | { kind: 'key_reused'; key: string }
  | { kind: 'key_in_use'; key: string }
  | { kind: 'refused'; refusal: UploadRefusal }
  | { kind: 'abandoned' };

/** One upload to decide. */
export interface UploadRequest {
  tenant: string;
  idempotencyKey?: string;
  /**
   * Reads the body, once the key is claimed (a repeat of an upload still being received is refused
   * before a byte of its own body is read): kept for a new upload, only fingerprinted for a repeat of a
   * remembered one, so a replay writes nothing.
   */
  receive: (options: ReceiveOptions) => Promise<ReceivedUpload>;
  /**
   * Aborted once the upload must not be stored any more: its client went away, or the server's
   * shutdown grace period ended, so no answer would reach the client. Checked right before the store
   * commits; an upload stopped by it is `abandoned` and leaves nothing behind.
   */
  signal?: AbortSignal;
}

/** What the upload service needs. */
export interface UploadServiceDeps {
  store: DocumentStore;
  processor: Pick<Processor, 'submit'>;
  clock: () => Date;
}

/** Decides uploads. */
export interface UploadService {
  /**
   * Receives the files and stores them as new documents, or replays the earlier upload under the same
   * key and tenant; anything but `created` leaves no file and no record behind.
   */
  upload(request: UploadRequest): Promise<UploadOutcome>;
}

/**
 * The one place an upload's outcome is decided: the key in use, the body refused, a replay, a key reused
 * for other files, or new documents (stored, remembered under the key, then processed).
 * @example const outcome = await createUploadService({ store, processor, clock }).upload({ tenant, idempotencyKey, receive });
 */
export function createUploadService({ store, processor, clock }: UploadServiceDeps): UploadService {
  async function create(tenant: string, key: string | undefined, received: ReceivedUpload, signal?: AbortSignal): Promise<UploadOutcome> {
    if (received.kind === 'refused') return received;
    const { files } = received;
    const now = clock();
    const remember =
      key === undefined
        ? undefined
        : { key, fingerprint: await fingerprint(files), expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString() };
    if (signal?.aborted) {
      await Promise.all(files.map((f) => f.file.discard()));
      return { kind: 'abandoned' };
    }
    const documents = await store.insert(
      files.map((f) => ({ tenant, filename: f.filename, content_type: f.contentType, size_bytes: f.size, file: f.file })),
      now.toISOString(),
      remember,
    );
    processor.submit(documents);
    return { kind: 'created', documents };
  }

  return {
    async upload({ tenant, idempotencyKey: key, receive, signal }) {
      if (key === undefined) return create(tenant, undefined, await receive({ keep: true }), signal);
      const claim = await store.claimKey(tenant, key, clock().toISOString());
      if (claim.kind === 'in_use') return { kind: 'key_in_use', key };
      if (claim.kind === 'earlier') {
        const received = await receive({ keep: false });
        if (received.kind === 'refused') return received;
        return (await fingerprint(received.files)) === claim.upload.fingerprint
          ? { kind: 'replayed', documents: claim.upload.documents }
          : { kind: 'key_reused', key };
      }
      try {
        return await create(tenant, key, await receive({ keep: true }), signal);
      } finally {
        // After an upload that remembered the key this frees nothing; after any other outcome the key is
        // free again (a failed upload is not remembered).
        await claim.release();
      }
    },
  };
}
