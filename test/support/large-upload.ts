import { open, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';

/** What a large upload got: the answer, read whole, or the connection's error. */
export type LargeUploadResult =
  | { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }
  | { error: string };

/** Options of {@link sendLargeUpload}. */
export interface LargeUpload {
  /** Bytes of the file after its `%PDF-1.4` line. */
  fileBytes: number;
  apiKey: string;
}

const BOUNDARY = 'largeuploadlargeupload';

/**
 * POSTs `upload_files` with one PDF part of `fileBytes` bytes (Content-Length framed), written as fast as the
 * connection takes it, with the answer read as it arrives, as a browser or curl does: the answer, or the error
 * the client saw (a reset, a hang up) instead.
 * @example const got = await sendLargeUpload(baseUrl, { fileBytes: 32 * 1024 * 1024, apiKey });
 */
export function sendLargeUpload(baseUrl: string, { fileBytes, apiKey }: LargeUpload): Promise<LargeUploadResult> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files[]"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 0x20);
  return new Promise((resolve) => {
    const req = request(`${baseUrl}/api/v1/documents/upload_files`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': head.length + fileBytes + tail.length,
        'x-api-key': apiKey,
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (data: Buffer) => chunks.push(data));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: `the answer broke off: ${error.code ?? error.message}` }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.write(head);
    let left = fileBytes;
    const pump = () => {
      while (left > 0 && !req.destroyed) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

/**
 * Writes what users send as an over-limit upload (`curl -F files[]=@small.pdf -F files[]=@big.pdf`) into `dir`:
 * a small real PDF, and a PDF a byte past `maxFileBytes` (a real PDF's bytes first, so it is sniffed as one,
 * then zeros). Returns their paths.
 * @example const { small, big } = await writeOverLimitPair(dir, 25 * 1024 * 1024);
 */
export async function writeOverLimitPair(dir: string, maxFileBytes: number): Promise<{ small: string; big: string }> {
  const pdf = await readFile(fixturePath('text.pdf'));
  const small = join(dir, 'small.pdf');
  const big = join(dir, 'big.pdf');
  await writeFile(small, pdf);
  const file = await open(big, 'w');
  await file.write(pdf);
  await file.truncate(maxFileBytes + 1);
  await file.close();
  return { small, big };
}
