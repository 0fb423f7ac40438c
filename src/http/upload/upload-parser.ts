import { rm } from 'node:fs/promises';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import type { UploadLimits as ContractUploadLimits } from '../../contract/upload-limits.js';
import type { ContentType } from '../../reference/model.js';
import { ApiError } from '../errors.js';
import { requestState } from '../request-state.js';
import { DEFAULT_MIN_UPLOAD_RATE, type MinUploadRate, watchUploadRate } from './min-rate.js';
import { invalidBody, RejectedPart, type UploadRejection } from './rejection.js';
import { createSniffingStorage, type SniffedFile } from './sniffing-storage.js';

/** The only multipart field the upload accepts. */
export const FILES_FIELD = 'files[]';

/** Per-request upload limits: the contract's two (files, bytes), the filename length and the body rate. */
export interface UploadLimits extends ContractUploadLimits {
  /** Characters (code points) per filename: the contract's `DocumentSummary.filename.maxLength`. */
  maxFilenameLength: number;
  /** How fast the body must keep arriving (default {@link DEFAULT_MIN_UPLOAD_RATE}). */
  minRate?: MinUploadRate;
}

/** One accepted file, fsynced in the temp dir, in the order of its part. */
export interface ReceivedFile {
  filename: string;
  contentType: ContentType;
  size: number;
  sha256: string;
  tempPath: string;
}

const NO_FILES = (): UploadRejection =>
  invalidBody(
    [{ in: 'body', name: FILES_FIELD, message: 'at least one file is required' }],
    `Send one or more files in multipart/form-data parts named "${FILES_FIELD}".`,
  );

function unexpectedField(name: string, isFile: boolean): UploadRejection {
  const detail =
    name === FILES_FIELD
      ? `The "${FILES_FIELD}" part has no filename; send each file as a file part.`
      : `Unexpected multipart field ${JSON.stringify(name)}; files must be sent as "${FILES_FIELD}".`;
  const message =
    name === FILES_FIELD ? 'must be a file part (with a filename)' : `unexpected ${isFile ? '' : 'non-file '}field; use "${FILES_FIELD}"`;
  return invalidBody([{ in: 'body', name, message }], detail);
}

function filenameTooLong(name: string, max: number): UploadRejection {
  return invalidBody(
    [{ in: 'body', name: FILES_FIELD, message: `filename must be at most ${max} characters (this one has ${[...name].length})` }],
    `A filename is longer than ${max} characters: ${JSON.stringify(`${[...name].slice(0, 40).join('')}…`)}.`,
  );
}

// Why multer refused the body; undefined when the trouble is ours (the file system: a 500).
function translate(err: unknown, limits: UploadLimits): UploadRejection | undefined {
  if (err instanceof RejectedPart) return err.rejection;
  if (err instanceof multer.MulterError) {
    const { filename } = err as multer.MulterError & { filename?: string };
    switch (err.code) {
      case 'LIMIT_FILE_SIZE':
        return {
          code: 'file_too_large',
          detail: `${JSON.stringify(filename ?? 'A file')} is larger than the ${limits.maxFileBytes}-byte limit per file.`,
        };
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_PART_COUNT':
        return { code: 'too_many_files', detail: `At most ${limits.maxFiles} files can be uploaded in one request.` };
      default:
        return invalidBody(
          [{ in: 'body', name: err.field ?? 'body', message: err.message.toLowerCase() }],
          `The multipart body was refused: ${err.message}.`,
        );
    }
  }
  if (err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string') return undefined;
  // Anything else (busboy's parse errors, a request stream that ended early) means a malformed or
  // incomplete body.
  const reason = err instanceof Error ? err.message : String(err);
  return invalidBody(
    [{ in: 'body', name: 'body', message: 'is not valid multipart/form-data' }],
    `The multipart body is malformed (${reason}).`,
  );
}

/** An upload's body, read: its files, or why it was refused (and then no temp file is left). */
export type ReceivedUpload = { kind: 'received'; files: ReceivedFile[] } | { kind: 'rejected'; rejection: UploadRejection };

/** Reads one upload's body; see {@link createUploadReceiver}. */
export type UploadReceiver = (req: Request, res: Response) => Promise<ReceivedUpload>;

/**
 * Reads an upload's body with multer, every limit explicit, into its files or its rejection. All
 * or nothing: on any refused part every temp file is removed before the rejection is returned.
 * @example const received = await createUploadReceiver('/data/tmp', limits)(req, res);
 */
export function createUploadReceiver(tmpDir: string, limits: UploadLimits): UploadReceiver {
  const fieldNames = new WeakMap<Request, string[]>();
  const storage = createSniffingStorage(tmpDir);
  const parse = multer({
    storage,
    // Checked before any byte of the file is read, so a refused name costs nothing.
    fileFilter: (_req, file, accept) => {
      if (file.fieldname !== FILES_FIELD) return accept(new RejectedPart(unexpectedField(file.fieldname, true)));
      if ([...file.originalname].length > limits.maxFilenameLength) {
        return accept(new RejectedPart(filenameTooLong(file.originalname, limits.maxFilenameLength)));
      }
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
    streamHandler: (req: Request, busboy: NodeJS.EventEmitter & NodeJS.WritableStream) => {
      busboy.on('field', (name: string) => fieldNames.get(req)?.push(name));
      req.pipe(busboy);
    },
  } as multer.Options).any();

  return (req, res) =>
    new Promise<ReceivedUpload>((resolve, reject) => {
      if (!req.is('multipart/form-data')) return resolve({ kind: 'rejected', rejection: NO_FILES() });
      fieldNames.set(req, []);
      const stopWatching = watchUploadRate(req, res, limits.minRate ?? DEFAULT_MIN_UPLOAD_RATE);
      parse(req, res, (err?: unknown) => {
        stopWatching();
        const files = (Array.isArray(req.files) ? req.files : []) as Array<Express.Multer.File & SniffedFile>;
        const fields = fieldNames.get(req) ?? [];
        const rejection = err
          ? translate(err, limits)
          : fields.length > 0
            ? unexpectedField(fields[0]!, false)
            : files.length === 0
              ? NO_FILES()
              : undefined;
        if (err || rejection) {
          // Multer removes the files it knows of; a file still being written cleans up after itself,
          // and settled() waits for that. Placeholders of unfinished files have no path.
          const settle = rejection ? () => resolve({ kind: 'rejected', rejection }) : () => reject(err);
          void storage
            .settled(req)
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
              tempPath: f.path,
            }),
          ),
        });
      });
    });
}

/** The problem an upload rejection is answered with. */
export function rejectionError({ code, detail, errors }: UploadRejection): ApiError {
  return new ApiError(code, detail, errors ? { errors } : {});
}

/**
 * The upload receiver as middleware, for a front that only judges an upload (the mock): the files
 * go into the request state (read them with {@link receivedFilesOf}), a rejection to the error handler.
 * @example app.post(UPLOAD_PATH, createUploadParser('/data/tmp', limits), handler);
 */
export function createUploadParser(tmpDir: string, limits: UploadLimits): RequestHandler {
  const receive = createUploadReceiver(tmpDir, limits);
  return (req, res, next) => {
    receive(req, res).then((received) => {
      if (received.kind === 'rejected') return next(rejectionError(received.rejection));
      requestState(res).files = received.files;
      next();
    }, next);
  };
}

/** The files `createUploadParser` accepted for this request. */
export function receivedFilesOf(res: Response): ReceivedFile[] {
  const { files } = requestState(res);
  if (!files) throw new Error('createUploadParser must run before this handler');
  return files;
}
