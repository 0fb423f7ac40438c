import { request } from 'node:http';
import { createDocprocClient, type DocprocClient } from '@docproc-kit/client';
import { startReferenceServer, until, uploadTempFiles } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A client that vanishes mid-upload must leave nothing behind: no document, no temp file.
type Server = Awaited<ReturnType<typeof startReferenceServer>>;
let server: Server;
let client: DocprocClient;
beforeAll(async () => {
  server = await startReferenceServer();
  client = createDocprocClient({ baseUrl: server.baseUrl, apiKey: 'docproc-dev-key' });
});
afterAll(() => server?.close());

/** Starts a multipart upload announcing 10 MB more than it sends (after `completeParts` whole files), then cuts the connection. */
function abortedUpload(sentBytes: number, completeParts: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const boundary = 'abortboundary';
    const head = (name: string) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
    const whole = Buffer.concat([
      ...Array.from({ length: completeParts }, (_, i) =>
        Buffer.concat([head(`whole-${i}.pdf`), Buffer.from('%PDF-1.4\n%%EOF\n'), Buffer.from('\r\n')]),
      ),
      head('cut.pdf'),
      Buffer.from('%PDF-1.4\n'),
      Buffer.alloc(sentBytes, 0x41),
    ]);
    const req = request(`${server.baseUrl}/api/v1/documents/upload_files`, {
      method: 'POST',
      headers: {
        'x-api-key': 'docproc-dev-key',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(whole.length + 10_000_000),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    // Cut only once the partial file is on disk, so the test sees the server clean up after it.
    req.write(whole, async () => {
      const onDisk = await until(async () => (await uploadTempFiles(server.dataDir)).length > completeParts, 5_000, 10);
      if (!onDisk) reject(new Error('the partial upload never reached the temp dir'));
      req.destroy();
    });
  });
}

describe('a client that drops the connection mid-body', () => {
  it.each([
    { what: 'in the first file', sentBytes: 256 * 1024, completeParts: 0 },
    { what: 'after two whole files, in the third', sentBytes: 1024 * 1024, completeParts: 2 },
  ])('$what: leaves no document and no temp file, and the server keeps serving', async ({ sentBytes, completeParts }) => {
    const before = (await client.listDocuments()).data!.pagination.total;
    await abortedUpload(sentBytes, completeParts);
    expect(await until(async () => (await uploadTempFiles(server.dataDir)).length === 0, 5_000)).toBe(true);
    const { data, response } = await client.listDocuments();
    expect(response.status).toBe(200);
    expect(data!.pagination.total).toBe(before);
    // And the next, complete upload works.
    const ok = await client.uploadDocuments([{ name: 'after-abort.pdf', data: new TextEncoder().encode('%PDF-1.4\n%%EOF\n') }]);
    expect(ok.response.status).toBe(202);
  });
});
