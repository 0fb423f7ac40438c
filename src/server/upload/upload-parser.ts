import { rm } from 'node:fs/promises';
import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { CONTRACT_UPLOAD_LIMITS, type UploadLimits as ContractUploadLimits } from '../../contract/upload-limits.js';
import { ApiError, invalidRequest } from '../errors.js';
import type { ContentType } from '../model.js';
import { DEFAULT_MIN_UPLOAD_RATE, watchUploadRate, type MinUploadRate } from './min-rate.js';
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

/** The contract's default upload limits (its `x-default-limits`: 25 MiB a file, 20 files). */
export const DEFAULT_UPLOAD_LIMITS: ContractUploadLimits = CONTRACT_UPLOAD_LIMITS;

/** One accepted file, fsynced in the temp dir, in the order of its part. */
export interface ReceivedFile {
  filename: string;
  contentType: ContentType;
  size: number;
  sha256: string;
  tempPath: string;
}

const NO_FILES = () =>
  invalidRequest([{ in: 'body', name: FILES_FIELD, message: 'at least one file is required' }], `Send one or more files in multipart/form-data parts named "${FILES_FIELD}".`);

function unexpectedField(name: string, isFile: boolean): ApiError {
  const detail =
    name === FILES_FIELD
      ? `The "${FILES_FIELD}" part has no filename; send each file as a file part.`
      : `Unexpected multipart field ${JSON.stringify(name)}; files must be sent as "${FILES_FIELD}".`;
  const message = name === FILES_FIELD ? 'must be a file part (with a filename)' : `unexpected ${isFile ? '' : 'non-file '}field; use "${FILES_FIELD}"`;
  return invalidRequest([{ in: 'body', name, message }], detail);
}

function filenameTooLong(name: string, max: number): ApiError {
  return invalidRequest(
    [{ in: 'body', name: FILES_FIELD, message: `filename must be at most ${max} characters (this one has ${[...name].length})` }],
    `A filename is longer than ${max} characters: ${JSON.stringify(`${[...name].slice(0, 40).join('')}…`)}.`,
  );
}

function translate(err: unknown, limits: UploadLimits): unknown {
  if (err instanceof ApiError) return err;
  if (err instanceof multer.MulterError) {
    const { filename } = err as multer.MulterError & { filename?: string };
    switch (err.code) {
      case 'LIMIT_FILE_SIZE':
        return new ApiError('file_too_large', `${JSON.stringify(filename ?? 'A file')} is larger than the ${limits.maxFileBytes}-byte limit per file.`);
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_PART_COUNT':
        return new ApiError('too_many_files', `At most ${limits.maxFiles} files can be uploaded in one request.`);
      default:
        return invalidRequest([{ in: 'body', name: err.field ?? 'body', message: err.message.toLowerCase() }], `The multipart body was refused: ${err.message}.`);
    }
  }
  // File-system trouble is ours (a 500); anything else (busboy's parse errors, a request stream
  // that ended early) means a malformed or incomplete body.
  if (err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string') return err;
  const reason = err instanceof Error ? err.message : String(err);
  return invalidRequest([{ in: 'body', name: 'body', message: 'is not valid multipart/form-data' }], `The multipart body is malformed (${reason}).`);
}

/**
 * Parses an upload with multer, every limit explicit, into `res.locals.files` (ReceivedFile[]).
 * All or nothing: on any refused part every temp file is removed and the error goes on.
 * @example router.post('/upload_files', createUploadParser('/data/tmp', DEFAULT_UPLOAD_LIMITS), handler);
 */
export function createUploadParser(tmpDir: string, limits: UploadLimits): RequestHandler {
  const fieldNames = new WeakMap<Request, string[]>();
  const storage = createSniffingStorage(tmpDir);
  const parse = multer({
    storage,
    // Checked before any byte of the file is read, so a refused name costs nothing.
    fileFilter: (_req, file, accept) => {
      if (file.fieldname !== FILES_FIELD) return accept(unexpectedField(file.fieldname, true));
      if ([...file.originalname].length > limits.maxFilenameLength) return accept(filenameTooLong(file.originalname, limits.maxFilenameLength));
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

  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next(NO_FILES());
    fieldNames.set(req, []);
    const stopWatching = watchUploadRate(req, res, limits.minRate ?? DEFAULT_MIN_UPLOAD_RATE);
    parse(req, res, (err?: unknown) => {
      stopWatching();
      const files = (Array.isArray(req.files) ? req.files : []) as Array<Express.Multer.File & SniffedFile>;
      const fields = fieldNames.get(req) ?? [];
      const refusal = err ? translate(err, limits) : fields.length > 0 ? unexpectedField(fields[0]!, false) : files.length === 0 ? NO_FILES() : undefined;
      if (refusal) {
        // Multer removes the files it knows of; a file still being written cleans up after itself,
        // and settled() waits for that. Placeholders of unfinished files have no path.
        void storage
          .settled(req)
          .then(() => Promise.all(files.filter((f) => f.path).map((f) => rm(f.path, { force: true }))))
          .then(() => next(refusal), next);
        return;
      }
      res.locals.files = files.map(
        (f): ReceivedFile => ({ filename: f.originalname, contentType: f.detectedType, size: f.size, sha256: f.sha256, tempPath: f.path }),
      );
      next();
    });
  };
}
