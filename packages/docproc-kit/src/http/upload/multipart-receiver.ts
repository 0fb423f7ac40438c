import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { textFault } from '@docproc-kit/contract/storable-text.js';
import {
  isUploadBody,
  type ReceivedFile,
  type ReceivedUpload,
  type ReceiveOptions,
  type UploadLimits,
} from '@docproc-kit/reference/http/upload/received-upload.js';
import { notKept } from '@docproc-kit/reference/http/upload/staged-file.js';
import { FILES_FIELD, refuse, type UploadRefusal } from '@docproc-kit/reference/http/upload/upload-refusal.js';
import type { Request, Response } from 'express';
import multer from 'multer';
import { DEFAULT_MIN_UPLOAD_RATE, watchUploadRate } from './min-rate.js';
import { createReadAheadBudget, type ReadAheadBudget } from './read-ahead.js';
import { createSniffingStorage, RefusedPart, type SniffedFile } from './sniffing-storage.js';
import { stagedTempFile } from './staged-temp-file.js';

// Why multer refused the body; undefined when the trouble is ours (the file system: a 500).
function translate(err: unknown, limits: UploadLimits): UploadRefusal | undefined {
  if (err instanceof RefusedPart) return err.refusal;
  if (err instanceof multer.MulterError) {
    const { filename } = err as multer.MulterError & { filename?: string };
    switch (err.code) {
      case 'LIMIT_FILE_SIZE':
        return refuse.fileTooLarge(filename, limits.maxFileBytes);
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_PART_COUNT':
        return refuse.tooManyFiles(limits.maxFiles);
      default:
        return refuse.overParserLimit(err.field ?? 'body', err.message);
    }
  }
  if (err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string') return undefined;
  // Anything else (busboy's parse errors, a request stream that ended early) means a malformed or
  // incomplete body.
  return refuse.malformed(err instanceof Error ? err.message : String(err));
}

/** Reads one upload's body; see {@link createUploadReceiver}. */
export type UploadReceiver = (req: IncomingMessage, res: ServerResponse, options: ReceiveOptions) => Promise<ReceivedUpload>;

/**
 * Reads an upload's multipart body with multer, every limit explicit, into its files (temp files in
 * `tmpDir`, or only fingerprints when the bytes are not kept) or its refusal. All or nothing: on any
 * refused part every temp file is removed before the refusal is returned. Each upload reads its socket
 * ahead of the parser by a share of `readAhead`, which all of the receiver's uploads share.
 * @example const received = await createUploadReceiver('/data/tmp', limits)(req, res, { keep: true });
 */
export function createUploadReceiver(
  tmpDir: string,
  limits: UploadLimits,
  readAhead: ReadAheadBudget = createReadAheadBudget(),
): UploadReceiver {
  const fieldNames = new WeakMap<object, string[]>();
  // How to stop feeding a body to multer once it stopped parsing it (see below).
  const stopParsing = new WeakMap<object, () => void>();
  const storage = createSniffingStorage(tmpDir);
  const parse = multer({
    storage,
    // Checked before any byte of the file is read, so a refused name costs nothing.
    fileFilter: (_req, file, accept) => {
      if (file.fieldname !== FILES_FIELD) return accept(new RefusedPart(refuse.unexpectedField(file.fieldname, true)));
      if ([...file.originalname].length > limits.maxFilenameLength) {
        return accept(new RefusedPart(refuse.filenameTooLong(file.originalname, limits.maxFilenameLength)));
      }
      const fault = textFault(file.originalname);
      if (fault) return accept(new RefusedPart(refuse.filenameUnstorable(file.originalname, fault)));
      accept(null, true);
    },
    // The client's filename is data: keep it whole (slashes included) and decode it as UTF-8, which
    // is what browsers, curl and undici send; `filename*` carries its own charset.
    preservePath: true,
    defParamCharset: 'utf8',
    defCharset: 'utf8',
    limits: {
      fileSize: limits.maxFileBytes,
      files: limits.maxFiles,
      // Text fields are refused below; these only bound what is read before that.
      fields: 10,
      fieldSize: 1024,
      fieldNameSize: 200,
      parts: limits.maxFiles + 10,
      headerPairs: 50,
      fieldNestingDepth: 4,
      fieldArrayIndexLimit: 100,
    },
    // Busboy reports text fields by their raw name; multer rewrites "files[]" into body.files.
    streamHandler: (body: NodeJS.ReadableStream & { readableEnded: boolean }, busboy: NodeJS.EventEmitter & NodeJS.WritableStream) => {
      busboy.on('field', (name: string) => fieldNames.get(body)?.push(name));
      // Multer unpipes the body from busboy when it is done with it: before its end, on a refusal.
      busboy.on('unpipe', () => body.readableEnded || stopParsing.get(body)?.());
      body.pipe(busboy);
    },
  } as multer.Options).any();

  return (req, res, { keep }) =>
    new Promise<ReceivedUpload>((resolve, reject) => {
      if (!isUploadBody(req.headers['content-type'])) return resolve({ kind: 'refused', refusal: refuse.noFiles() });
      // Multer reads the body through a stream of its own: on a refusal (a file past the limit, a part
      // refused at its first bytes) multer waits for the end of its input before it reports, and this
      // one ends as soon as multer stops parsing, so the refusal is answered at once; the rest of the
      // client's body is read and dropped by the lingering close (lingering-close.ts), within its limits.
      // Its share bounds what the body holds on both of its sides, the writable and the readable.
      const share = readAhead.take();
      const body = Object.assign(new PassThrough({ highWaterMark: Math.ceil(share.bytes / 2) }), { headers: req.headers });
      // What multer and the storage engine see as the request (they read its headers and key their state by it).
      const asRequest = body as unknown as Request;
      const failed = (error: Error) => body.destroy(error);
      const closed = () => req.complete || body.destroy(new Error('Request closed'));
      req.once('error', failed).once('close', closed);
      req.pipe(body);
      fieldNames.set(body, []);
      storage.keep(asRequest, keep);
      const stopWatching = watchUploadRate(req, res, limits.minRate ?? DEFAULT_MIN_UPLOAD_RATE);
      stopParsing.set(body, () => {
        stopWatching();
        req.unpipe(body);
        body.end();
      });
      parse(asRequest, res as Response, (err?: unknown) => {
        share.release();
        stopWatching();
        req.off('error', failed).off('close', closed);
        const parsed = asRequest.files;
        const files = (Array.isArray(parsed) ? parsed : []) as Array<Express.Multer.File & SniffedFile>;
        const fields = fieldNames.get(body) ?? [];
        const refusal = err
          ? translate(err, limits)
          : fields.length > 0
            ? refuse.unexpectedField(fields[0]!, false)
            : files.length === 0
              ? refuse.noFiles()
              : undefined;
        if (err || refusal) {
          // Multer removes the files it knows of; a file still being written cleans up after itself,
          // and settled() waits for that. Placeholders of unfinished files have no path.
          const settle = refusal ? () => resolve({ kind: 'refused', refusal }) : () => reject(err);
          void storage
            .settled(asRequest)
            .then(() => Promise.all(files.filter((f) => f.path).map((f) => rm(f.path, { force: true }))))
            .then(settle, reject);
          return;
        }
        resolve({
          kind: 'received',
          files: files.map(
            (f): ReceivedFile => ({
              filename: f.originalname,
              contentType: f.detectedType,
              size: f.size,
              sha256: f.sha256,
              file: keep ? stagedTempFile(f.path, f.size) : notKept(f.size),
            }),
          ),
        });
      });
    });
}
