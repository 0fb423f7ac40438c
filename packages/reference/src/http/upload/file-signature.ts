import type { DetectedType } from './received-upload.js';

/**
 * How many leading bytes decide a file's type: both carriers judge the same head of a file (the Node front
 * holds this many bytes of a part back before storing any), so a file gets the same verdict from each.
 */
export const SIGNATURE_BYTES = 4100;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (head: Uint8Array, bytes: readonly number[]) => bytes.every((b, i) => head[i] === b);
const chunkType = (head: Uint8Array, at: number) => String.fromCharCode(...head.subarray(at, at + 4));

// A PNG's chunks from its signature on, within the head: it is a PNG once an IDAT (its image) or an acTL
// (an animated PNG, whose first frame any PNG reader decodes) comes; the head ending first leaves it a PNG;
// no first chunk header, or a chunk length past 2^31 - 1 (the format's bound), makes it none.
function isPng(head: Uint8Array): boolean {
  if (!startsWith(head, PNG_SIGNATURE)) return false;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  let at = PNG_SIGNATURE.length;
  if (at + 8 > head.length) return false;
  do {
    const length = view.getInt32(at);
    if (length < 0) return false;
    const type = chunkType(head, at + 4);
    if (type === 'IDAT' || type === 'acTL') return true;
    at += 8 + length + 4;
  } while (at + 8 < head.length);
  return true;
}

/**
 * The type the contract accepts that a file's leading bytes show (at most {@link SIGNATURE_BYTES} are
 * read), never its name or declared type: a PDF by `%PDF`, a JPEG by its SOI marker and a first marker that
 * is not JPEG-LS's, a PNG (animated ones too) by its signature and chunks; undefined for anything else.
 * Browser-safe; used by both carriers (the fetch carrier's form-data receiver, the Node front's storage).
 * @example sniffType(new TextEncoder().encode('%PDF-1.7\n')); // 'application/pdf'
 */
export function sniffType(bytes: Uint8Array): DetectedType | undefined {
  const head = bytes.subarray(0, SIGNATURE_BYTES);
  if (head.length < 2) return undefined;
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46])) return 'application/pdf';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return head[3] === 0xf7 ? undefined : 'image/jpeg';
  return isPng(head) ? 'image/png' : undefined;
}

/**
 * Whether `head` already fixes {@link sniffType}'s verdict, whatever bytes follow: a PDF's and a JPEG's
 * are decided by their first four bytes; a PNG's (and a refusal) only by the whole head. The Node front
 * stores a part as soon as this holds, so a slow upload's bytes reach the disk as they come.
 * @example verdictIsFinal(new TextEncoder().encode('%PDF')); // true
 */
export function verdictIsFinal(head: Uint8Array): boolean {
  if (head.length >= SIGNATURE_BYTES) return true;
  if (head.length < 4) return false;
  return startsWith(head, [0x25, 0x50, 0x44, 0x46]) || startsWith(head, [0xff, 0xd8, 0xff]);
}
