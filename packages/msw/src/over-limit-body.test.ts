import { afterAll, describe, expect, it } from 'vitest';
import { createDocprocFetch } from './fetch.js';

// An upload far past the limit, its body a stream generated as it is pulled: the fetch mock answers as the
// server does, at the first bytes that decide, having pulled about the limit and no more.
const BASE_URL = 'http://docproc.test';
const KEY = 'docproc-dev-key';
const MAX_FILE_BYTES = 1024 * 1024;
const CHUNK = 64 * 1024;
const BOUNDARY = 'overlimitoverlimit';
const docprocFetch = createDocprocFetch({ baseUrl: BASE_URL, apiKeys: [KEY], maxFileBytes: MAX_FILE_BYTES, processingDelayMs: 0 });
afterAll(() => docprocFetch.close());

/** A 1 GiB multipart upload of one file starting with `firstBytes`, made chunk by chunk as it is pulled. */
function lazyUpload(firstBytes: string): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files[]"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n${firstBytes}`,
  );
  let left = 1024 * 1024 * 1024;
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = pulled === 0 ? head : new Uint8Array(Math.min(CHUNK, left)).fill(0x20);
      if (pulled > 0) left -= chunk.length;
      pulled += chunk.length;
      controller.enqueue(chunk);
      if (left <= 0) controller.close();
    },
  });
  return { body, pulled: () => pulled };
}

async function upload(body: ReadableStream<Uint8Array>): Promise<Response> {
  return docprocFetch(`${BASE_URL}/api/v1/documents/upload_files`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'x-api-key': KEY },
    body,
    duplex: 'half',
  } as RequestInit);
}

describe('the fetch mock given an upload of 1 GiB generated as it is read', () => {
  it('answers 413 file_too_large after pulling about the limit, not the body', async () => {
    const { body, pulled } = lazyUpload('%PDF-1.4\n');
    const answer = await upload(body);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ code: 'file_too_large' });
    expect(pulled()).toBeGreaterThan(MAX_FILE_BYTES);
    expect(pulled()).toBeLessThan(MAX_FILE_BYTES + 4 * CHUNK);
  });

  it('answers 415 at the first bytes of a file that is no document, having pulled one chunk past them', async () => {
    const { body, pulled } = lazyUpload('hello, this is plain text and no document at all');
    const answer = await upload(body);
    expect(answer.status).toBe(415);
    expect(pulled()).toBeLessThan(4 * CHUNK);
  });

  it('stores nothing for either', async () => {
    const list = await docprocFetch(`${BASE_URL}/api/v1/documents/get_documents`, { headers: { 'x-api-key': KEY } });
    expect((await list.json()).pagination.total).toBe(0);
  });
});
