import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage as Request } from 'node:http';
import { join } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sniffType, verdictIsFinal } from '@docproc-kit/reference/http/upload/file-signature.js';
import type { DetectedType } from '@docproc-kit/reference/http/upload/received-upload.js';
import type { UploadRefusal } from '@docproc-kit/reference/http/upload/upload-refusal.js';
import { refuse } from '@docproc-kit/reference/http/upload/upload-refusal.js';
import type multer from 'multer';

/** What the storage engine adds to multer's file object. */
export interface SniffedFile {
  /** The temp file; '' when the bytes were not kept. */
  path: string;
  size: number;
  /** Detected from the leading bytes, never from the name or the part's Content-Type. */
  detectedType: DetectedType;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

/**
 * Carries a refusal through multer's callbacks, which only pass errors along; the receiver takes it back
 * out, so the refusal keeps its one shape.
 */
export class RefusedPart extends Error {
  constructor(readonly refusal: UploadRefusal) {
    super(refusal.detail);
    this.name = 'RefusedPart';
  }
}

/** A multer storage engine that can also tell when it is done with a request's files. */
export interface SniffingStorage extends multer.StorageEngine {
  /** Whether the bytes of this request's files are kept (default) or only hashed and dropped. */
  keep(req: Request, keep: boolean): void;
  /**
   * Resolves once every file of this request has been stored or cleaned up. Multer can report an
   * error (a cut-off body, say) while a file is still being written; waiting here means nothing is
   * left in the temp dir when the refusal is sent.
   */
  settled(req: Request): Promise<void>;
}

// The part's leading bytes until `decided` holds for them (or the part ends), read before anything is stored,
// and the part from its first byte on to stream: the head put back in front of what has not been read yet.
function readHead(stream: Readable, decided: (head: Buffer) => boolean): Promise<{ head: Buffer; rest: Readable }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const finish = (ended: boolean) => {
      stream.off('readable', onReadable).off('end', onEnd).off('error', reject);
      const head = Buffer.concat(chunks);
      if (ended) return resolve({ head, rest: Readable.from(head.length > 0 ? [head] : []) });
      stream.unshift(head);
      resolve({ head, rest: stream });
    };
    const onReadable = () => {
      for (let chunk: Buffer | null = stream.read(); chunk !== null; chunk = stream.read()) {
        chunks.push(chunk);
        if (decided(chunks.length === 1 ? chunk : Buffer.concat(chunks))) return finish(false);
      }
    };
    const onEnd = () => finish(true);
    stream.on('readable', onReadable).once('end', onEnd).once('error', reject);
  });
}

const discarding = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

/**
 * A multer storage engine that sniffs each part's magic bytes before storing it (so a text file named
 * .png is refused at its first bytes, and the whole upload with it), then streams it to a server-made
 * name in `dir`, hashing it on the way; or, for a request whose bytes are not kept, only hashes them.
 * @example multer({ storage: createSniffingStorage('/data/tmp') });
 */
export function createSniffingStorage(dir: string): SniffingStorage {
  const pending = new WeakMap<Request, Set<Promise<unknown>>>();
  const dropped = new WeakSet<Request>();
  return {
    keep(req, keep) {
      if (keep) dropped.delete(req);
      else dropped.add(req);
    },
    async settled(req) {
      await Promise.allSettled([...(pending.get(req) ?? [])]);
    },
    _handleFile(req: Request, file: Express.Multer.File, callback: (error?: unknown, info?: Partial<Express.Multer.File>) => void) {
      const keep = !dropped.has(req);
      const path = keep ? join(dir, `${randomUUID()}.part`) : '';
      // Past the size limit busboy drops the part's bytes but ends its stream only at the part's end, and
      // multer reports the refusal only once every file is settled: ending the file here lets the refusal
      // be answered at once, however much of the part is still to come.
      file.stream.once('limit', () => file.stream.destroy(new Error(`${file.originalname} is over the size limit`)));
      const store = async (): Promise<SniffedFile> => {
        const { head, rest } = await readHead(file.stream, verdictIsFinal);
        const detectedType = sniffType(head);
        // The rest of the part is left unread: multer stops parsing on the refusal, and the rest of the
        // body is the lingering close's (reading it here could reach the size limit first, a 413 for a 415).
        if (!detectedType) throw new RefusedPart(refuse.unsupported(file.originalname));
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
          // 1 MiB a write: the disk holds the socket back less often (see READ_AHEAD_BYTES in read-ahead.ts).
          await pipeline(rest, tap, keep ? createWriteStream(path, { flags: 'wx', highWaterMark: 1024 * 1024 }) : discarding());
        } catch (error) {
          if (keep) await rm(path, { force: true });
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
