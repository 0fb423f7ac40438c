import { formDataDisposition } from './content-disposition.js';

/** One part of a multipart/form-data body, read as busboy (multer's parser) reads it. */
export interface MultipartPart {
  /** The `name` of its Content-Disposition (undefined when absent or empty). */
  name: string | undefined;
  /** `filename*` (decoded by its charset) or else `filename` (UTF-8), kept whole: slashes and all. */
  filename: string | undefined;
  /** A file part: it has a filename, or its Content-Type is application/octet-stream. */
  isFile: boolean;
  data: Uint8Array;
}

/** The parts of a body, or why it is not multipart/form-data. */
export type ParsedMultipart = { ok: true; parts: MultipartPart[] } | { ok: false; reason: string };

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8');

export function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (let i = haystack.indexOf(first, from); i !== -1 && i + needle.length <= haystack.length; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

const startsAt = (haystack: Uint8Array, needle: Uint8Array, at: number) => needle.every((byte, i) => haystack[at + i] === byte);

/**
 * The boundary of a `multipart/form-data` Content-Type (quoted or not), or undefined.
 * @example boundaryOf('multipart/form-data; boundary="a b"'); // 'a b'
 */
export function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,200})"|([^\s;]{1,200}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

function partOf(headerText: string, data: Uint8Array): MultipartPart | undefined {
  const headers = new Map<string, string>();
  for (const line of headerText.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      const name = line.slice(0, colon).trim().toLowerCase();
      if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
    }
  }
  const disposition = formDataDisposition(headers.get('content-disposition') ?? '');
  // Parts without a form-data disposition are skipped, as busboy skips them.
  if (!disposition) return undefined;
  const { name, filename } = disposition;
  const type = (headers.get('content-type') ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
  return { name, filename, isFile: filename !== undefined || type === 'application/octet-stream', data };
}

/**
 * Reads a whole multipart/form-data body into its parts, browser-safe and byte for byte the way the server's
 * parser (busboy, through multer with `preservePath` and UTF-8 parameters) reads it, so uploads through a
 * Fetch API `Request` (a test's fetch, MSW in a browser) are judged as on the server, whatever FormData
 * parser the runtime has. A body cut off before its closing boundary is malformed.
 * @example const parsed = parseMultipart(bytes, boundaryOf(request.headers.get('content-type')!)!);
 */
export function parseMultipart(body: Uint8Array, boundary: string): ParsedMultipart {
  const dashBoundary = encoder.encode(`--${boundary}`);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  let at = startsAt(body, dashBoundary, 0) ? 0 : indexOf(body, delimiter, 0) + 2;
  if (at === 1) return { ok: false, reason: 'no boundary found in the body' };
  const parts: MultipartPart[] = [];
  for (;;) {
    let next = at + dashBoundary.length;
    if (body[next] === 0x2d && body[next + 1] === 0x2d) return { ok: true, parts };
    while (body[next] === 0x20 || body[next] === 0x09) next++; // transport padding
    if (body[next] !== 0x0d || body[next + 1] !== 0x0a) return { ok: false, reason: 'malformed part boundary' };
    const headersStart = next + 2;
    const blank = startsAt(body, encoder.encode('\r\n'), headersStart)
      ? headersStart - 2
      : indexOf(body, encoder.encode('\r\n\r\n'), headersStart);
    if (blank === -1) return { ok: false, reason: 'unexpected end of form' };
    const dataStart = blank + 4;
    const end = indexOf(body, delimiter, dataStart);
    if (end === -1) return { ok: false, reason: 'unexpected end of form' };
    const part = partOf(utf8.decode(body.subarray(headersStart, Math.max(headersStart, blank))), body.subarray(dataStart, end));
    if (part) parts.push(part);
    at = end + 2;
  }
}
