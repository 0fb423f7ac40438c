import { textFault } from '@docproc-kit/contract/storable-text.js';
import { formDataDisposition } from './content-disposition.js';
import { SIGNATURE_BYTES, sniffType, verdictIsFinal } from './file-signature.js';
import { indexOf } from './multipart-body.js';
import type { UploadLimits } from './received-upload.js';
import { FILES_FIELD, refuse, type UploadRefusal } from './upload-refusal.js';

const encoder = new TextEncoder();
const latin1 = new TextDecoder('latin1');

/** A part being read: what its headers say, where its data starts. */
interface OpenPart {
  dataStart: number;
  /** A `files[]` file part whose name is storable: only such a part is refused before the body ends. */
  eligible: boolean;
  filename: string;
}

function openPart(headerText: string, dataStart: number, index: number, limits: UploadLimits): OpenPart {
  const line = headerText.split('\r\n').find((l) => /^content-disposition\s*:/i.test(l)) ?? '';
  const disposition = formDataDisposition(line.slice(line.indexOf(':') + 1).trim());
  const filename = disposition?.filename ?? '';
  const eligible =
    disposition?.name === FILES_FIELD &&
    disposition.filename !== undefined &&
    index < limits.maxFiles &&
    [...filename].length <= limits.maxFilenameLength &&
    !textFault(filename);
  return { dataStart, eligible, filename };
}

/**
 * Reads an upload's body from its stream as the server's receiver does, refusing it at the first bytes that
 * decide a refusal, without reading the rest: a file part past `maxFileBytes` (413) or whose first bytes are
 * no document's (415), as long as every part before it was one the upload could store. Otherwise the whole
 * body, for the multipart parser. Memory holds at most what was read, which a refusal bounds.
 * @example const read = await readUntilRefused(request.body, boundary, limits);
 */
export async function readUntilRefused(
  stream: ReadableStream<Uint8Array> | null,
  boundary: string,
  limits: UploadLimits,
): Promise<{ kind: 'body'; bytes: Uint8Array } | { kind: 'refused'; refusal: UploadRefusal }> {
  // A CRLF in front, so the first delimiter is found as every later one is.
  let buffer = new Uint8Array(64 * 1024);
  buffer.set([13, 10]);
  let length = 2;
  if (!stream) return { kind: 'body', bytes: new Uint8Array(0) };
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const reader = stream.getReader();
  let part: OpenPart | undefined;
  let headersFrom = -1;
  let scanFrom = 0;
  let index = 0;
  let earlierStorable = true;
  const refusal = (): UploadRefusal | undefined => {
    for (;;) {
      if (headersFrom >= 0) {
        const end = indexOf(buffer.subarray(0, length), encoder.encode('\r\n\r\n'), headersFrom);
        if (end < 0) return undefined;
        part = openPart(latin1.decode(buffer.subarray(headersFrom, end)), end + 4, index++, limits);
        headersFrom = -1;
        scanFrom = part.dataStart;
      }
      const at = indexOf(buffer.subarray(0, length), delimiter, scanFrom);
      if (at >= 0) {
        if (part)
          earlierStorable &&=
            part.eligible && at - part.dataStart <= limits.maxFileBytes && !!sniffType(buffer.subarray(part.dataStart, at));
        part = undefined;
        headersFrom = at + delimiter.length;
        continue;
      }
      // What may yet be the delimiter's beginning is not the part's.
      scanFrom = Math.max(scanFrom, length - delimiter.length + 1);
      if (!part?.eligible || !earlierStorable) return undefined;
      const known = length - delimiter.length + 1 - part.dataStart;
      if (known > limits.maxFileBytes) return refuse.fileTooLarge(part.filename, limits.maxFileBytes);
      const head = buffer.subarray(part.dataStart, part.dataStart + Math.max(0, Math.min(known, SIGNATURE_BYTES)));
      if (verdictIsFinal(head) && !sniffType(head)) return refuse.unsupported(part.filename);
      return undefined;
    }
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { kind: 'body', bytes: buffer.subarray(2, length) };
    if (length + value.length > buffer.length) {
      const grown = new Uint8Array(Math.max(buffer.length * 2, length + value.length));
      grown.set(buffer.subarray(0, length));
      buffer = grown;
    }
    buffer.set(value, length);
    length += value.length;
    const refused = refusal();
    if (refused) {
      await reader.cancel().catch(() => {});
      return { kind: 'refused', refusal: refused };
    }
  }
}
