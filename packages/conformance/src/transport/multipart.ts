/** One part of a hand-built multipart body. */
export interface RawPart {
  field: string;
  /** Written as `filename="..."` (UTF-8 bytes, quotes escaped as browsers do). */
  filename?: string;
  /** Written between the quotes of `filename="..."` as is, quoted-pairs (`\"`, `\\`) included; instead of `filename`. */
  quotedFilename?: string;
  /** Written as `filename*=UTF-8''...` (RFC 5987). */
  filenameStar?: string;
  contentType?: string;
  data: Uint8Array;
}

const encoder = new TextEncoder();

/**
 * Builds a multipart/form-data body byte by byte, for requests FormData cannot express (RFC 5987
 * filenames, truncated or malformed bodies).
 * @example const { body, contentType } = buildMultipart([{ field: 'files[]', filename: 'a.pdf', data }]);
 */
export function buildMultipart(
  parts: RawPart[],
  boundary = `docproc-conformance-${Math.random().toString(36).slice(2)}`,
): { body: Uint8Array; contentType: string; boundary: string } {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    let disposition = `form-data; name="${part.field}"`;
    if (part.filename !== undefined)
      disposition += `; filename="${part.filename.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
    else if (part.quotedFilename !== undefined) disposition += `; filename="${part.quotedFilename}"`;
    if (part.filenameStar !== undefined) disposition += `; filename*=UTF-8''${encodeRfc5987(part.filenameStar)}`;
    let head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n`;
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(encoder.encode(`${head}\r\n`), part.data, encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, boundary };
}

/** Percent-encodes a value as an RFC 5987 ext-value (attr-char kept, everything else %XX of its UTF-8). */
export function encodeRfc5987(value: string): string {
  return [...encoder.encode(value)]
    .map((b) =>
      /[A-Za-z0-9!#$&+.^_`|~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}
