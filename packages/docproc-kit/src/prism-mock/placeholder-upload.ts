import { randomUUID } from 'node:crypto';
import type { ReceivedFile } from '@docproc-kit/reference/http/upload/received-upload.js';

const EXTENSIONS: Record<ReceivedFile['contentType'], string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' };

/**
 * A small, plain multipart body standing in for an upload that was already parsed and judged: one
 * `files[]` part per accepted file, ASCII names and a few bytes each. Prism validates this instead
 * of the client's bytes, so its parser never meets a body it cannot read (unusual filenames,
 * missing part headers) or one over its 10 MB limit.
 * @example const { body, contentType } = placeholderUpload(received.files);
 */
export function placeholderUpload(files: ReceivedFile[]): { body: string; contentType: string } {
  const boundary = `docproc-mock-${randomUUID()}`;
  const parts = files.map(
    (file, i) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="file-${i + 1}.${EXTENSIONS[file.contentType]}"\r\n` +
      `Content-Type: ${file.contentType}\r\n\r\n(${file.size} bytes)\r\n`,
  );
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}
