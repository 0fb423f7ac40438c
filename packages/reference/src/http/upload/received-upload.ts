import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import type { components } from '@docproc-kit/contract/generated/openapi.js';
import { namesMediaType } from '@docproc-kit/contract/media-types.js';
import type { StagedFile } from './staged-file.js';
import type { UploadRefusal } from './upload-refusal.js';

/** A file's type as detected from its bytes. */
export type DetectedType = components['schemas']['DocumentContentType'];

/**
 * Whether a request's Content-Type is the media type the contract gives the upload's body (`multipart/form-data`),
 * whatever its parameters; both carriers' receivers refuse any other body as sending no files.
 * @example isUploadBody('multipart/form-data; boundary=x'); // true
 */
export const isUploadBody = (contentType: string | undefined): boolean => namesMediaType(contentType, BUNDLED.mediaTypes.upload);

/** How fast an upload body must keep arriving. */
export interface MinUploadRate {
  /** Bytes per second, averaged over each window (default 1 KiB/s). */
  bytesPerSecond: number;
  /** The window the average is taken over (default 10 s). */
  windowMs: number;
}

/** Per-request upload limits: the contract's two (files, bytes), the filename length and the body rate. */
export interface UploadLimits {
  /** Bytes per file. */
  maxFileBytes: number;
  /** Files per request. */
  maxFiles: number;
  /** Characters (code points) per filename: the contract's `DocumentSummary.filename.maxLength`. */
  maxFilenameLength: number;
  /** How fast a body must keep arriving (the Node receiver; default {@link DEFAULT_MIN_UPLOAD_RATE}). */
  minRate?: MinUploadRate;
}

/** One accepted file, in the order of its part. */
export interface ReceivedFile {
  filename: string;
  contentType: DetectedType;
  size: number;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
  file: StagedFile;
}

/** An upload's body, read: its files, or why it was refused (and then nothing of it is kept). */
export type ReceivedUpload = { kind: 'received'; files: ReceivedFile[] } | { kind: 'refused'; refusal: UploadRefusal };

/** How to read an upload's body. */
export interface ReceiveOptions {
  /**
   * Keep the bytes for a store to take (true), or only read and fingerprint them (false: a repeat of a
   * remembered upload, judged without writing a byte).
   */
  keep: boolean;
}
