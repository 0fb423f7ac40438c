import type { StagedFile } from '../http/upload/staged-file.js';
import type { ContentType, DocumentError, DocumentRecord, DocumentStatus, ListQuery } from '../model.js';

export type { StagedFile };

/** A file received whole, ready to become a document. */
export interface NewDocument {
  tenant: string;
  filename: string;
  content_type: ContentType;
  size_bytes: number;
  file: StagedFile;
  /** The state it is created in (a seed of the mock controls); without it, `processing` as an upload is. */
  state?: InitialState;
}

/** A document's state from the start, rather than `processing` (seeded documents). */
export interface InitialState {
  status: DocumentStatus;
  error: DocumentError | null;
  created_at: string;
  updated_at: string;
  processed_at: string | null;
  /** How many runs it has had (1 unless given). */
  attempts?: number;
  /** The extracted text of a completed document. */
  text?: string;
}

/** What to remember of an upload under its Idempotency-Key. */
export interface Remember {
  key: string;
  /** Identifies the files (names and bytes, in order); see upload/idempotency.ts. */
  fingerprint: string;
  expires_at: string;
}

/** An earlier upload under an Idempotency-Key: its fingerprint and its documents as its 202 showed them. */
export interface EarlierUpload {
  fingerprint: string;
  documents: DocumentRecord[];
}

/**
 * What an upload under an Idempotency-Key finds: the key free (now held until `release` or the insert
 * that remembers it), held by an upload still in flight, or remembered from an earlier upload.
 */
export type KeyClaim = { kind: 'claimed'; release(): Promise<void> } | { kind: 'in_use' } | { kind: 'earlier'; upload: EarlierUpload };

/** A new state of a record, and the extracted text to store with it. */
export interface RecordChange {
  record: DocumentRecord;
  text?: string;
}

/** A record after {@link DocumentStore.update}, and whether this update changed it. */
export interface Updated {
  record: DocumentRecord;
  changed: boolean;
}

/**
 * The store the reference service runs on: exactly the operations the service uses, in its own terms.
 * Records it returns are never changed in place (a change is a new record), so callers may keep them.
 * Adapters: `memory/` (tests, the browser mock), and in the docproc-kit package `store/lowdb/` (the default,
 * durable files on disk) and `store/postgres/` (one database shared by any number of replicas).
 * store-contract.test.ts holds every adapter to the same behaviour.
 */
export interface DocumentStore {
  /** A secret of this store that makes tenant ids irreversible (see auth.ts); made once and kept. */
  readonly tenantSalt: string;
  /**
   * Claims `key` for an upload of `tenant` about to be received; an earlier unexpired upload under it
   * is answered instead. Held keys are free again when released or remembered by {@link insert}.
   */
  claimKey(tenant: string, key: string, now: string): Promise<KeyClaim>;
  /**
   * Takes the files and creates one record each, ids in order, all or nothing: `processing` (an upload), or
   * in its `state` with its text (a seed); with `remember`, the upload is remembered under its (claimed)
   * key. A failed insert leaves nothing behind.
   */
  insert(files: NewDocument[], now: string, remember?: Remember): Promise<DocumentRecord[]>;
  /** The tenant's document, or undefined (another tenant's documents are undefined too). */
  get(tenant: string, id: number): Promise<DocumentRecord | undefined>;
  /** Any tenant's document, for processing. */
  byId(id: number): Promise<DocumentRecord | undefined>;
  /** Every document in a status (restart recovery). */
  inStatus(status: DocumentStatus): Promise<DocumentRecord[]>;
  /** One page of the tenant's documents, newest first, filtered as the contract says, and the filtered total. */
  list(tenant: string, query: ListQuery): Promise<{ documents: DocumentRecord[]; total: number }>;
  /** A document's extracted text: null unless completed. */
  content(record: DocumentRecord): Promise<string | null>;
  /** A document's uploaded bytes. */
  readFile(id: number): Promise<Uint8Array>;
  /** Where a document's bytes are on this machine's disk, when they are in a file (extractors read them there). */
  filePath?(id: number): string;
  /**
   * Changes a record, one change at a time per record: `decide` gets the record as the change before left
   * it and returns the new record (and text to store with it), or undefined to leave it. Resolves to the
   * record afterwards and whether it changed; undefined when the record is gone (a reset removed it).
   */
  update(id: number, decide: (current: DocumentRecord) => RecordChange | undefined): Promise<Updated | undefined>;
  /** Deletes every document of a tenant, with its files and remembered keys; resolves to how many. */
  removeTenant(tenant: string): Promise<number>;
  /** Waits for writes in flight and lets go of what the store holds (a data dir, connections). */
  close(): Promise<void>;
}
