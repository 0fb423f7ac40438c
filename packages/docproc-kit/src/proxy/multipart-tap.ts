import { formDataDisposition } from '@docproc-kit/reference/http/upload/content-disposition.js';
import { boundaryOf } from '@docproc-kit/reference/http/upload/multipart-body.js';

/** One part of a multipart body as the judge keeps it: its headers' names, its length, never its bytes. */
export interface TappedPart {
  /** The `name` of its Content-Disposition (undefined when absent). */
  name: string | undefined;
  filename: string | undefined;
  contentType: string | undefined;
  /** Bytes of the part's body. */
  size: number;
}

/** What a multipart request body showed once it ended. */
export interface TappedMultipart {
  parts: TappedPart[];
  /** Set when the body is not well-formed multipart as far as the tap could follow it. */
  malformed?: string;
}

/** Reads a multipart/form-data body chunk by chunk, keeping only each part's headers and length. */
export interface MultipartTap {
  write(chunk: Buffer): void;
  end(): TappedMultipart;
}

// Part headers past this are not a form a client sends: the tap stops following the body.
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_PARTS = 1_000;

function readHeaders(block: string): Omit<TappedPart, 'size'> {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  // Read as the server's parser reads it: a part it skips names nothing.
  const disposition = formDataDisposition(headers.get('content-disposition') ?? '');
  return { name: disposition?.name, filename: disposition?.filename, contentType: headers.get('content-type') };
}

/**
 * A tap for one multipart body with `contentType`'s boundary: part bodies are counted as they stream by
 * and dropped, so a 200 MB file costs the tap a few bytes of carry-over, never its bytes.
 * @example const tap = createMultipartTap(req.headers['content-type']); req.on('data', tap.write); tap.end().parts
 */
export function createMultipartTap(contentType: string): MultipartTap {
  const boundary = boundaryOf(contentType);
  const parts: TappedPart[] = [];
  if (!boundary) return { write() {}, end: () => ({ parts, malformed: 'no boundary in the Content-Type' }) };
  // The delimiter before every part but the first is CRLF--boundary; a leading CRLF makes the first one alike.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done' | 'broken' = 'preamble';
  let carry: Buffer = Buffer.from('\r\n');
  let headerBytes: Buffer[] = [];
  let headerLength = 0;
  let current: TappedPart | undefined;
  let malformed: string | undefined;

  const breakOff = (reason: string) => {
    malformed = reason;
    state = 'broken';
  };

  const scan = (data: Buffer) => {
    let at = 0;
    while (at < data.length && state !== 'done' && state !== 'broken') {
      if (state === 'preamble' || state === 'body') {
        const found = data.indexOf(delimiter, at);
        if (found === -1) {
          // Keep the tail that could start a delimiter split across chunks.
          const keep = Math.max(at, data.length - delimiter.length + 1);
          if (current) current.size += keep - at;
          carry = data.subarray(keep);
          return;
        }
        if (current) current.size += found - at;
        current = undefined;
        at = found + delimiter.length;
        state = 'after-delimiter';
      } else if (state === 'after-delimiter') {
        if (data.length - at < 2) {
          carry = data.subarray(at);
          return;
        }
        const two = data.toString('latin1', at, at + 2);
        if (two === '--') state = 'done';
        else if (two === '\r\n') {
          state = 'headers';
          headerBytes = [];
          headerLength = 0;
          at += 2;
        } else breakOff('a boundary not followed by CRLF or --');
      } else {
        const found = data.indexOf('\r\n\r\n', at);
        const end = found === -1 ? data.length : found;
        headerBytes.push(data.subarray(at, end));
        headerLength += end - at;
        if (headerLength > MAX_HEADER_BYTES) return breakOff(`part headers longer than ${MAX_HEADER_BYTES} bytes`);
        if (found === -1) {
          // A CRLFCRLF split across chunks: keep the last three bytes to look again.
          const keep = Buffer.concat(headerBytes);
          const tail = Math.max(0, keep.length - 3);
          headerBytes = [keep.subarray(0, tail)];
          headerLength = tail;
          carry = keep.subarray(tail);
          return;
        }
        if (parts.length >= MAX_PARTS) return breakOff(`more than ${MAX_PARTS} parts`);
        current = { ...readHeaders(Buffer.concat(headerBytes).toString('utf8')), size: 0 };
        parts.push(current);
        at = found + 4;
        state = 'body';
      }
    }
    carry = Buffer.alloc(0);
  };

  return {
    write(chunk) {
      if (state === 'done' || state === 'broken') return;
      if (carry.length > 0 && chunk.length >= delimiter.length && (state === 'body' || state === 'preamble')) {
        // A file's bytes are not copied: only the seam between the kept tail and this chunk is looked at,
        // and the two are joined only when a delimiter lies there (once per part).
        const seam = Buffer.concat([carry, chunk.subarray(0, delimiter.length)]);
        if (seam.indexOf(delimiter) === -1) {
          if (current) current.size += carry.length;
          carry = Buffer.alloc(0);
          scan(chunk);
          return;
        }
      }
      const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      carry = Buffer.alloc(0);
      scan(data);
    },
    end() {
      if (state !== 'done' && !malformed) malformed = 'the body ended before the closing boundary';
      return { parts, ...(malformed ? { malformed } : {}) };
    },
  };
}
