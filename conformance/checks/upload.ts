import { defineCheck } from './define.js';

/** POST /documents/upload_files. */
export const uploadChecks = {
  accepted: defineCheck({
    id: 'upload.accepted',
    profile: 'contract',
    area: 'upload',
    description: 'A valid upload of one PDF is a 202.',
    rules: [],
  }),
  onePerPart: defineCheck({
    id: 'upload.one-document-per-part',
    profile: 'full',
    area: 'upload',
    description: 'An upload of several files returns one `processing` document per part, in the order the parts were sent.',
    rules: [],
  }),
  echoesFields: defineCheck({
    id: 'upload.echoes-fields',
    profile: 'full',
    area: 'upload',
    description:
      'Each document echoes its part: filename byte-exact (non-ASCII too), size_bytes, content_type detected from the bytes (not the name or part type), attempts 1, nothing processed yet.',
    rules: [],
  }),
  extendedFilename: defineCheck({
    id: 'upload.filename-rfc5987',
    profile: 'full',
    area: 'upload',
    description: "A filename sent as `filename*=UTF-8''...` (RFC 5987) is stored decoded.",
    rules: [],
  }),
  noFiles: defineCheck({
    id: 'upload.no-files',
    profile: 'contract',
    area: 'upload',
    description: 'An upload with no `files[]` part (an empty multipart body, or no body) is a 400.',
    rules: [],
  }),
  wrongField: defineCheck({
    id: 'upload.wrong-field',
    profile: 'contract',
    area: 'upload',
    description: 'A file under another field name (`file`) is a 400, even beside a good `files[]` part, and nothing is stored.',
    rules: [],
  }),
  unsupportedType: defineCheck({
    id: 'upload.unsupported-type',
    profile: 'full',
    area: 'upload',
    description: 'A file that is not a PDF, JPEG or PNG by its bytes is a 415 unsupported_media_type, whatever its name says.',
    rules: [],
  }),
  allOrNothing: defineCheck({
    id: 'upload.all-or-nothing',
    profile: 'full',
    area: 'upload',
    description: "Good parts with one bad part are a 415 and create no document (proven by searching for the upload's unique token).",
    rules: [],
  }),
  tooManyFiles: defineCheck({
    id: 'upload.too-many-files',
    profile: 'full',
    area: 'upload',
    description: 'With --max-files N: N+1 files in one upload are a 413 too_many_files and create nothing.',
    rules: [],
  }),
  filenameVerbatim: defineCheck({
    id: 'upload.filename-verbatim',
    profile: 'full',
    area: 'upload',
    description:
      'Filenames with `/`, `\\` and `..` in them come back exactly as sent: a filename is data, never cut to its last path segment.',
    rules: [],
  }),
  filesAtLimit: defineCheck({
    id: 'upload.files-at-limit',
    profile: 'full',
    area: 'upload',
    description: 'With --max-files N: exactly N files in one upload are a 202 (the limit is inclusive).',
    rules: [],
  }),
  fileAtLimit: defineCheck({
    id: 'upload.file-at-limit',
    profile: 'full',
    area: 'upload',
    description: 'With --max-file-bytes N: a file of exactly N bytes is a 202 (the limit is inclusive).',
    rules: [],
  }),
  fileTooLarge: defineCheck({
    id: 'upload.file-too-large',
    profile: 'full',
    area: 'upload',
    description: 'With --max-file-bytes N: a file of N+1 bytes is a 413 file_too_large and creates nothing.',
    rules: [],
  }),
} as const;

/** How invalid requests are explained. */
export const validationChecks = {
  namesParameter: defineCheck({
    id: 'validation.names-parameter',
    profile: 'full',
    area: 'validation',
    description: 'A 400 for an invalid parameter or multipart field lists it in `errors` with its name and location (`in`).',
    rules: [],
  }),
} as const;
