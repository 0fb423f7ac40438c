import { ApiError, type FieldError } from '../problem.js';

/**
 * Why an upload's body was refused, as a value, from the receiver to the response: the contract's error
 * code, a detail for humans and, for `invalid_request`, the offending fields. The HTTP layer alone turns
 * it into a problem.
 */
export interface UploadRefusal {
  code: 'invalid_request' | 'file_too_large' | 'too_many_files' | 'unsupported_media_type';
  detail: string;
  errors?: FieldError[];
}

/** The only multipart field the upload accepts. */
export const FILES_FIELD = 'files[]';

const invalidBody = (errors: FieldError[], detail: string): UploadRefusal => ({ code: 'invalid_request', detail, errors });

/** Every refusal an upload receiver can give, worded once for both receivers (multipart on Node, FormData in a browser). */
export const refuse = {
  noFiles: (): UploadRefusal =>
    invalidBody(
      [{ in: 'body', name: FILES_FIELD, message: 'at least one file is required' }],
      `Send one or more files in multipart/form-data parts named "${FILES_FIELD}".`,
    ),
  unexpectedField(name: string, isFile: boolean): UploadRefusal {
    const detail =
      name === FILES_FIELD
        ? `The "${FILES_FIELD}" part has no filename; send each file as a file part.`
        : `Unexpected multipart field ${JSON.stringify(name)}; files must be sent as "${FILES_FIELD}".`;
    const message =
      name === FILES_FIELD ? 'must be a file part (with a filename)' : `unexpected ${isFile ? '' : 'non-file '}field; use "${FILES_FIELD}"`;
    return invalidBody([{ in: 'body', name, message }], detail);
  },
  filenameTooLong: (name: string, max: number): UploadRefusal =>
    invalidBody(
      [{ in: 'body', name: FILES_FIELD, message: `filename must be at most ${max} characters (this one has ${[...name].length})` }],
      `A filename is longer than ${max} characters: ${JSON.stringify(`${[...name].slice(0, 40).join('')}…`)}.`,
    ),
  /** A filename no store can hold as sent (a NUL in `filename*`); `fault` says why (storable-text.ts). */
  filenameUnstorable: (name: string, fault: string): UploadRefusal =>
    invalidBody(
      [{ in: 'body', name: FILES_FIELD, message: `filename ${fault}` }],
      `A filename cannot be stored as sent: ${JSON.stringify([...name].slice(0, 40).join(''))} ${fault}.`,
    ),
  fileTooLarge: (filename: string | undefined, maxFileBytes: number): UploadRefusal => ({
    code: 'file_too_large',
    detail: `${JSON.stringify(filename ?? 'A file')} is larger than the ${maxFileBytes}-byte limit per file.`,
  }),
  tooManyFiles: (maxFiles: number): UploadRefusal => ({
    code: 'too_many_files',
    detail: `At most ${maxFiles} files can be uploaded in one request.`,
  }),
  unsupported: (filename: string): UploadRefusal => ({
    code: 'unsupported_media_type',
    detail: `${JSON.stringify(filename)} is not a PDF, JPEG or PNG file.`,
  }),
  /** A body that is not multipart/form-data at all, or is cut off: `reason` says how. */
  malformed: (reason: string): UploadRefusal =>
    invalidBody(
      [{ in: 'body', name: 'body', message: 'is not valid multipart/form-data' }],
      `The multipart body is malformed (${reason}).`,
    ),
  /** A limit of the multipart parser other than files and bytes (field sizes, header pairs). */
  overParserLimit: (field: string, message: string): UploadRefusal =>
    invalidBody([{ in: 'body', name: field, message: message.toLowerCase() }], `The multipart body was refused: ${message}.`),
};

/** The problem an upload refusal is answered with: the one place a refusal becomes HTTP. */
export function refusalError({ code, detail, errors }: UploadRefusal): ApiError {
  return new ApiError(code, detail, errors ? { errors } : {});
}
