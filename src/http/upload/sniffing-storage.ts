import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import { fileTypeStream } from 'file-type';
import type multer from 'multer';
import type { ContentType } from '../../reference/model.js';
import { fsyncFile } from '../../reference/store/durable-fs.js';
import { RejectedPart } from './rejection.js';

/** What the storage engine adds to multer's file object. */
export interface SniffedFile {
  path: string;
  size: number;
  /** Detected from the leading bytes, never from the name or the part's Content-Type. */
  detectedType: ContentType;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

const ACCEPTED: Record<string, ContentType> = {
  'application/pdf': 'application/pdf',
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  // An animated PNG is a PNG whose first frame any PNG reader decodes.
  'image/apng': 'image/png',
};

/** Reports a file that is not a PDF, JPEG or PNG by its bytes; it stops the whole upload. */
export function unsupported(filename: string): RejectedPart {
  return new RejectedPart({ code: 'unsupported_media_type', detail: `${JSON.stringify(filename)} is not a PDF, JPEG or PNG file.` });
}

/** A multer storage engine that can also tell when it is done with a request's files. */
export interface SniffingStorage extends multer.StorageEngine {
  /**
   * Resolves once every file of this request has been stored or cleaned up. Multer can report an
   * error (a cut-off body, say) while a file is still being written; waiting here means nothing is
   * left in the temp dir when the refusal is sent.
   */
  settled(req: Request): Promise<void>;
}

/**
 * A multer storage engine that sniffs each part's magic bytes before storing it (so a text file
 * named .png is refused at its first bytes, and the whole upload with it), then streams it to a
 * server-made name in `dir`, hashing it on the way and fsyncing it before reporting success.
 * @example multer({ storage: createSniffingStorage('/data/tmp') });
 */
export function createSniffingStorage(dir: string): SniffingStorage {
  const pending = new WeakMap<Request, Set<Promise<unknown>>>();
  return {
    async settled(req) {
      await Promise.allSettled([...(pending.get(req) ?? [])]);
    },
    _handleFile(req: Request, file: Express.Multer.File, callback: (error?: unknown, info?: Partial<Express.Multer.File>) => void) {
      const path = join(dir, `${randomUUID()}.part`);
      const store = async (): Promise<SniffedFile> => {
        const typed = await fileTypeStream(file.stream);
        const detectedType = typed.fileType && ACCEPTED[typed.fileType.mime];
        if (!detectedType) {
          typed.resume();
          throw unsupported(file.originalname);
        }
        const hash = createHash('sha256');
        let size = 0;
        const tap = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            hash.update(chunk);
            done(null, chunk);
          },
        });
        try {
          await pipeline(typed, tap, createWriteStream(path, { flags: 'wx' }));
          await fsyncFile(path);
        } catch (error) {
          await rm(path, { force: true });
          throw error;
        }
        return { path, size, detectedType, sha256: hash.digest('hex') };
      };
      const stored = store();
      const mine = pending.get(req) ?? new Set<Promise<unknown>>();
      pending.set(req, mine.add(stored));
      stored.then(
        (info) => callback(null, info as unknown as Partial<Express.Multer.File>),
        (error: unknown) => callback(error),
      );
    },
    _removeFile(_req: Request, file: Express.Multer.File, callback: (error: Error | null) => void) {
      if (!file.path) return callback(null);
      rm(file.path, { force: true }).then(() => callback(null), callback);
    },
  };
}
