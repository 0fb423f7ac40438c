import { fileTypeFromBuffer } from 'file-type';
import { ACCEPTED_TYPES, type ReceivedFile, type ReceivedUpload, type ReceiveOptions, type UploadLimits } from './received-upload.js';
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
 * `maxFileBytes`, names of at most `maxFilenameLength` characters, types by their bytes. The body is read
 * whole into memory, as a Fetch body is; browser-safe.
 * @example const received = await receiveFormData(request, limits, { keep: true });
 */
export async function receiveFormData(request: Request, limits: UploadLimits, { keep }: ReceiveOptions): Promise<ReceivedUpload> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')) return refused(refuse.noFiles());
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    return refused(refuse.malformed(error instanceof Error ? error.message : String(error)));
  }
  const parts = [...form.entries()];
  for (const [name, value] of parts) {
    if (typeof value === 'string') return refused(refuse.unexpectedField(name, false));
    if (name !== FILES_FIELD) return refused(refuse.unexpectedField(name, true));
  }
  if (parts.length === 0) return refused(refuse.noFiles());
  if (parts.length > limits.maxFiles) return refused(refuse.tooManyFiles(limits.maxFiles));
  const files: ReceivedFile[] = [];
  for (const [, value] of parts) {
    const file = value as File;
    if ([...file.name].length > limits.maxFilenameLength) return refused(refuse.filenameTooLong(file.name, limits.maxFilenameLength));
    if (file.size > limits.maxFileBytes) return refused(refuse.fileTooLarge(file.name, limits.maxFileBytes));
    const bytes = new Uint8Array(await file.arrayBuffer());
    const detected = (await fileTypeFromBuffer(bytes))?.mime;
    const contentType = detected === undefined ? undefined : ACCEPTED_TYPES[detected];
    if (!contentType) return refused(refuse.unsupported(file.name));
    files.push({
      filename: file.name,
      contentType,
      size: bytes.length,
      sha256: await sha256(bytes),
      file: keep ? stagedBytes(bytes) : notKept(bytes.length),
    });
  }
  return { kind: 'received', files };
}
