import { textFault } from '@docproc-kit/contract/storable-text.js';
import { readUntilRefused } from './early-refusal.js';
import { sniffType } from './file-signature.js';
import { boundaryOf, parseMultipart } from './multipart-body.js';
import { isUploadBody, type ReceivedFile, type ReceivedUpload, type ReceiveOptions, type UploadLimits } from './received-upload.js';
import { notKept, stagedBytes } from './staged-file.js';
import { FILES_FIELD, refuse, type UploadRefusal } from './upload-refusal.js';

const refused = (refusal: UploadRefusal): ReceivedUpload => ({ kind: 'refused', refusal });

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Reads an upload's body from a Fetch API request (a test's `fetch`, a browser's intercepted request), with
 * the multipart receiver's rules and refusals: only `files[]` file parts, at most `maxFiles` of at most
 * `maxFileBytes`, names of at most `maxFilenameLength` characters, types by their bytes. A file past the limit
 * or of a type that is no document's is refused at its first such bytes (early-refusal.ts); any other body is read
 * whole into memory and parsed as the server's parser does it (multipart-body.ts), not by the runtime's
 * FormData, whose parsers differ (undici ignores `filename*`); browser-safe.
 * @example const received = await receiveFormData(request, limits, { keep: true });
 */
export async function receiveFormData(request: Request, limits: UploadLimits, { keep }: ReceiveOptions): Promise<ReceivedUpload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!isUploadBody(contentType)) return refused(refuse.noFiles());
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) return refused(refuse.malformed('no boundary in the Content-Type'));
  let body: Uint8Array;
  try {
    const read = await readUntilRefused(request.body, boundary, limits);
    if (read.kind === 'refused') return refused(read.refusal);
    body = read.bytes;
  } catch (error) {
    return refused(refuse.malformed(error instanceof Error ? error.message : String(error)));
  }
  const parsed = parseMultipart(body, boundary);
  if (!parsed.ok) return refused(refuse.malformed(parsed.reason));
  const { parts } = parsed;
  for (const part of parts) {
    if (!part.isFile) return refused(refuse.unexpectedField(part.name ?? '', false));
    if (part.name !== FILES_FIELD) return refused(refuse.unexpectedField(part.name ?? '', true));
  }
  if (parts.length === 0) return refused(refuse.noFiles());
  if (parts.length > limits.maxFiles) return refused(refuse.tooManyFiles(limits.maxFiles));
  const files: ReceivedFile[] = [];
  for (const part of parts) {
    const name = part.filename ?? '';
    if ([...name].length > limits.maxFilenameLength) return refused(refuse.filenameTooLong(name, limits.maxFilenameLength));
    const fault = textFault(name);
    if (fault) return refused(refuse.filenameUnstorable(name, fault));
    if (part.data.length > limits.maxFileBytes) return refused(refuse.fileTooLarge(name, limits.maxFileBytes));
    // A copy of its own, so the stored file does not pin the whole body in memory.
    const bytes = part.data.slice();
    const contentType = sniffType(bytes);
    if (!contentType) return refused(refuse.unsupported(name));
    files.push({
      filename: name,
      contentType,
      size: bytes.length,
      sha256: await sha256(bytes),
      file: keep ? stagedBytes(bytes) : notKept(bytes.length),
    });
  }
  return { kind: 'received', files };
}
