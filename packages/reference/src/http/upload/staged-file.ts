/**
 * An uploaded file on its way into a store, which takes it: moves it (a temp file on this machine's disk),
 * reads it (bytes held in memory), or drops it when the upload goes no further.
 */
export interface StagedFile {
  readonly size: number;
  bytes(): Promise<Uint8Array>;
  /** Makes the file durable and moves it to `path` (absent for bytes held in memory). */
  moveTo?(path: string): Promise<void>;
  /** Removes what is left of it; safe to call twice. */
  discard(): Promise<void>;
}

/** A staged file held in memory (a browser's or a test's upload). */
export function stagedBytes(bytes: Uint8Array): StagedFile {
  return { size: bytes.length, bytes: async () => bytes, discard: async () => {} };
}

/** A file that was only fingerprinted, its bytes dropped as they arrived (a repeat of a remembered upload). */
export function notKept(size: number): StagedFile {
  return {
    size,
    bytes: () => Promise.reject(new Error('this upload was only fingerprinted; its bytes were not kept')),
    discard: async () => {},
  };
}
