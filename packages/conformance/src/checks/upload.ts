import { defineCheck, fail } from '../definitions/check.js';
import { describeResponse, show } from '../definitions/describe.js';
import type { Exchange } from '../definitions/exchange.js';
import { problemCode, uploaded, type WireDocument } from '../transport/api.js';
import { type AnswerObservation, judgeAnswer, type NothingStored } from './answer-judge.js';

/** Where a validation error may name what was wrong: `{in, name}` as the contract's `errors` entries say. */
export interface Named {
  in: string;
  name: string;
}

/** A filename sent and the one the 202 returned for it. */
export interface FilenameObservation {
  status: number;
  sent: string;
  got: string | undefined;
}

/** One upload written in one of the multipart forms (inputs/multipart-forms.ts), and what came back. */
export interface FormObservation {
  form: string;
  exchange: Exchange;
  sent: { filename: string; size: number };
}

const refusedAsMalformed = (exchange: Exchange) => exchange.status === 400 && problemCode(exchange) === 'invalid_request';
const storedAsSent = ({ exchange, sent }: FormObservation) => {
  const docs = uploaded(exchange);
  return exchange.status === 202 && docs.length === 1 && docs[0]!.filename === sent.filename && docs[0]!.size_bytes === sent.size;
};
const formFailure = ({ form, exchange, sent }: FormObservation, expected: string) =>
  fail(`${form}: ${describeResponse(exchange)}`, `${form}: ${expected.replace('$FILE', `${show(sent.filename)} of ${sent.size} bytes`)}`);

const filenameKept = ({ status, sent, got }: FilenameObservation) =>
  got === sent ? undefined : fail(`${status}: filename ${show(got ?? null)}`, `202: filename ${show(sent)}`);

/** POST /documents/upload_files. */
export const uploadChecks = {
  accepted: defineCheck<AnswerObservation>({
    id: 'upload.accepted',
    profile: 'contract',
    area: 'upload',
    description: 'A valid upload of one PDF is a 202.',
    rules: [
      'upload.accepted-202',
      'upload.multipart-files',
      'api.path-prefix',
      'schema:UploadRequest.type',
      'schema:UploadRequest.required',
      'schema:UploadRequest.files[].type',
      'schema:UploadRequest.files[].items.type',
      'schema:UploadRequest.files[].items.format',
    ],
    judge: judgeAnswer,
  }),
  onePerPart: defineCheck<{ status: number; sent: string[]; documents: WireDocument[] }>({
    id: 'upload.one-document-per-part',
    profile: 'full',
    area: 'upload',
    description: 'An upload of several files returns one `processing` document per part, in the order the parts were sent.',
    rules: ['upload.part-order', 'upload.multipart-files', 'lifecycle.created-processing', 'upload.202-one-per-file'],
    judge: ({ status, sent, documents }) =>
      documents.length === sent.length && documents.every((d, i) => d.filename === sent[i] && d.status === 'processing')
        ? undefined
        : fail(`${status}: ${show(documents.map((d) => [d.filename, d.status]))}`, `202 with ${show(sent.map((f) => [f, 'processing']))}`),
  }),
  echoesFields: defineCheck<{ part: number; want: Record<string, unknown>; doc: WireDocument | undefined }>({
    id: 'upload.echoes-fields',
    profile: 'full',
    area: 'upload',
    description:
      'Each document echoes its part: filename byte-exact (non-ASCII too), size_bytes, content_type detected from the bytes (not the name or part type; an Exif JPEG without the JFIF APP0 and a PDF 2.0 are a JPEG and a PDF), attempts 1, nothing processed yet.',
    rules: [
      'upload.filename-verbatim',
      'upload.type-from-bytes',
      'document.size-bytes',
      'document.attempts',
      'lifecycle.created-processing',
    ],
    judge: ({ part, want, doc }) => {
      const got = doc && Object.fromEntries(Object.keys(want).map((k) => [k, (doc as Record<string, unknown>)[k]]));
      return JSON.stringify(got) === JSON.stringify(want)
        ? undefined
        : fail(`part ${part}: ${show(got ?? null)}`, `part ${part}: ${show(want)}`);
    },
  }),
  extendedFilename: defineCheck<FilenameObservation>({
    id: 'upload.filename-rfc5987',
    profile: 'full',
    area: 'upload',
    description: "A filename sent as `filename*=UTF-8''...` (RFC 5987) is stored decoded.",
    rules: ['upload.filename-verbatim'],
    judge: filenameKept,
  }),
  noFiles: defineCheck<AnswerObservation>({
    id: 'upload.no-files',
    profile: 'contract',
    area: 'upload',
    description: 'An upload with no `files[]` part (an empty multipart body, or no body) is a 400.',
    rules: ['schema:UploadRequest.files[].minItems', 'validation.body-less-upload', 'errors.validation-400', 'errors.upload-400-causes'],
    judge: judgeAnswer,
  }),
  wrongField: defineCheck<AnswerObservation>({
    id: 'upload.wrong-field',
    profile: 'contract',
    area: 'upload',
    description:
      'A file under another field name (`file`, and with --profile full the name without its brackets, with an index, in capitals, and a text field of 2 KiB) is a 400, even beside a good `files[]` part, and nothing is stored.',
    rules: ['upload.only-files-field', 'upload.all-or-nothing', 'errors.upload-400-causes', 'errors.upload-400-nothing-stored'],
    judge: judgeAnswer,
  }),
  unsupportedType: defineCheck<{ exchange: Exchange; filename: string; code: unknown; detail: unknown }>({
    id: 'upload.unsupported-type',
    profile: 'full',
    area: 'upload',
    description:
      'A file that is not a PDF, JPEG or PNG by its bytes is a 415 unsupported_media_type whose `detail` names it, whatever its name says.',
    rules: ['upload.type-from-bytes', 'errors.unsupported-names-file'],
    judge: ({ exchange, filename, code, detail }) =>
      exchange.status === 415 && code === 'unsupported_media_type' && typeof detail === 'string' && detail.includes(filename)
        ? undefined
        : fail(
            describeResponse(exchange),
            `415 with code "unsupported_media_type" and a detail naming ${JSON.stringify(filename)} (not a PDF, JPEG or PNG by its bytes)`,
          ),
  }),
  allOrNothing: defineCheck<AnswerObservation>({
    id: 'upload.all-or-nothing',
    profile: 'full',
    area: 'upload',
    description: "Good parts with one bad part are a 415 and create no document (proven by searching for the upload's unique token).",
    rules: ['upload.all-or-nothing'],
    judge: judgeAnswer,
  }),
  tooManyFiles: defineCheck<AnswerObservation>({
    id: 'upload.too-many-files',
    profile: 'full',
    area: 'upload',
    description:
      "N+1 files in one upload are a 413 too_many_files and create nothing (N: --max-files, else the contract's default `x-default-limits.max_files`).",
    rules: ['limit:max_files', 'upload.limits', 'upload.all-or-nothing', 'limits.defaults', 'errors.413-limits'],
    judge: judgeAnswer,
  }),
  filenameVerbatim: defineCheck<FilenameObservation>({
    id: 'upload.filename-verbatim',
    profile: 'full',
    area: 'upload',
    description:
      'Filenames with `/`, `\\` and `..` in them, or spaces at either end, come back exactly as sent: a filename is data, never cut to its last path segment or trimmed.',
    rules: ['upload.filename-verbatim'],
    judge: filenameKept,
  }),
  filenameQuotedPair: defineCheck<{ status: number; readings: string[]; got: string | undefined }>({
    id: 'upload.filename-quoted-pair',
    profile: 'full',
    area: 'upload',
    description:
      'A quoted filename holding quoted-pairs (`\\"`, `\\\\`, one right before the closing quote included, as `curl --form-escape` and MIME libraries send a quote or a backslash) is a 202, and the name reads them (`"`, `\\`) or keeps them as sent: never cut at the escaped quote, never dropped.',
    rules: ['upload.filename-verbatim', 'upload.multipart-files'],
    judge: ({ status, readings, got }) =>
      status === 202 && got !== undefined && readings.includes(got)
        ? undefined
        : fail(`${status}: filename ${show(got ?? null)}`, `202: filename ${readings.map((r) => show(r)).join(' or ')}`),
  }),
  multipartFormsAccepted: defineCheck<FormObservation>({
    id: 'upload.multipart-forms-accepted',
    profile: 'full',
    area: 'upload',
    description:
      'Every way the standards allow writing the multipart body is a 202 storing the file with its name and size: a quoted boundary holding a space (RFC 7578 §4.1), a preamble and an epilogue (RFC 2046 §5.1.1), spaces and tabs around `;` (RFC 9110 §5.6.6), another Content-Type parameter before `boundary` (RFC 9110 §8.3.1), names in other letter case, a filename as an unquoted token (RFC 6266), `filename*` in ISO-8859-1 with a language tag and in lower-case `utf-8` with lower-case hex (RFC 5987, which the contract names), a boundary of 70 characters.',
    rules: ['upload.multipart-files', 'upload.filename-verbatim', 'upload.accepted-202'],
    judge: (o) => (storedAsSent(o) ? undefined : formFailure(o, '202 with one document: $FILE')),
  }),
  multipartMalformedRefused: defineCheck<FormObservation | NothingStored>({
    id: 'upload.multipart-malformed-refused',
    profile: 'full',
    area: 'upload',
    description:
      "A body in which the Content-Type's boundary never appears, or one without its closing delimiter (RFC 2046 §5.1.1), is a 400 `invalid_request` problem (a malformed body) and stores nothing.",
    rules: ['errors.upload-400-causes', 'errors.upload-400-nothing-stored', 'upload.all-or-nothing'],
    judge: (o) =>
      'kind' in o
        ? judgeAnswer(o)
        : refusedAsMalformed(o.exchange)
          ? undefined
          : formFailure(o, '400 with code "invalid_request" (the body is malformed)'),
  }),
  multipartLenientForms: defineCheck<FormObservation | NothingStored>({
    id: 'upload.multipart-lenient-forms',
    profile: 'full',
    area: 'upload',
    description:
      'Forms that real parsers read either way (transport padding after a boundary, a parameter without a name, a `;` with nothing after it, bare LF line endings, `name=files[]` unquoted) are a 400 `invalid_request` that stores nothing, or a 202 storing the file with its name and size: never a 5xx, never another name.',
    rules: ['upload.multipart-files', 'upload.filename-verbatim', 'errors.upload-400-causes', 'errors.upload-400-nothing-stored'],
    judge: (o) =>
      'kind' in o
        ? judgeAnswer(o)
        : refusedAsMalformed(o.exchange) || storedAsSent(o)
          ? undefined
          : formFailure(o, '400 with code "invalid_request", or 202 with one document: $FILE'),
  }),
  filesAtLimit: defineCheck<{ exchange: Exchange; max: number; source: string }>({
    id: 'upload.files-at-limit',
    profile: 'full',
    area: 'upload',
    description: "Exactly N files in one upload are a 202 (the limit is inclusive; N: --max-files, else the contract's default).",
    rules: ['limit:max_files', 'upload.limits'],
    judge: ({ exchange, max, source }) =>
      exchange.status === 202 && uploaded(exchange).length === max
        ? undefined
        : fail(describeResponse(exchange), `202 with ${max} documents (${max} files; ${source})`),
  }),
  fileAtLimit: defineCheck<AnswerObservation>({
    id: 'upload.file-at-limit',
    profile: 'full',
    area: 'upload',
    description: "A file of exactly N bytes is a 202 (the limit is inclusive; N: --max-file-bytes, else the contract's default).",
    rules: ['limit:max_file_bytes', 'upload.limits'],
    judge: judgeAnswer,
  }),
  fileTooLarge: defineCheck<AnswerObservation>({
    id: 'upload.file-too-large',
    profile: 'full',
    area: 'upload',
    description:
      "A file of N+1 bytes is a 413 file_too_large and creates nothing (N: --max-file-bytes, else the contract's default `x-default-limits.max_file_bytes`).",
    rules: ['limit:max_file_bytes', 'upload.limits', 'upload.all-or-nothing', 'limits.defaults', 'errors.413-limits'],
    judge: judgeAnswer,
  }),
} as const;

/** How invalid requests are explained. */
export const validationChecks = {
  namesParameter: defineCheck<{ errors: unknown; accepted: readonly Named[] }>({
    id: 'validation.names-parameter',
    profile: 'full',
    area: 'validation',
    description: 'A 400 for an invalid parameter or multipart field lists it in `errors` with its name and location (`in`).',
    rules: ['errors.validation-400', 'list.validated-not-clamped', 'validation.body-less-upload'],
    judge: ({ errors, accepted }) => {
      // Header names are case-insensitive; parameter and field names are not.
      const same = (e: { in?: unknown; name?: unknown }, a: Named) =>
        e.in === a.in &&
        typeof e.name === 'string' &&
        (a.in === 'header' ? e.name.toLowerCase() === a.name.toLowerCase() : e.name === a.name);
      const holds =
        Array.isArray(errors) &&
        errors.some(
          (e: unknown) => typeof e === 'object' && e !== null && accepted.some((a) => same(e as { in?: unknown; name?: unknown }, a)),
        );
      return holds
        ? undefined
        : fail(`errors ${show(errors)}`, `errors naming ${accepted.map((a) => `{"in": "${a.in}", "name": "${a.name}"}`).join(' or ')}`);
    },
  }),
} as const;
