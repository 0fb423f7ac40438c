import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createDocprocClient } from '@docproc-kit/client';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocprocFetch } from '../src/docproc-fetch.js';
import { createDocprocHandlers } from '../src/msw.js';

const BASE_URL = 'http://docproc.test';
const KEY = 'docproc-dev-key';
// By path, not through fixturePath(): a DOM environment's URL global is not the one Node's url module takes.
const TEXT_PDF = createRequire(import.meta.url).resolve('@docproc-kit/contract/fixtures/text.pdf');

/**
 * What a frontend team's first test does, in the environment the calling test file declares: uploads the
 * fixture text.pdf through the typed client (as a File, as bytes plus a name), waits for it and finds it
 * by a word of its text layer; against the MSW handlers under msw/node, and against the fetch mock.
 */
export function describeUploads(environment: string): void {
  const handlers = createDocprocHandlers({ baseUrl: BASE_URL, processingDelayMs: 0 });
  const server = setupServer(...handlers);
  const docprocFetch = createDocprocFetch({ baseUrl: BASE_URL, processingDelayMs: 0 });
  let pdf: Uint8Array<ArrayBuffer>;
  beforeAll(async () => {
    pdf = new Uint8Array(await readFile(TEXT_PDF));
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(async () => {
    server.close();
    await Promise.all([handlers.close(), docprocFetch.close()]);
  });

  const clients = {
    'the MSW handlers': () => createDocprocClient({ baseUrl: BASE_URL, apiKey: KEY }),
    'the fetch mock': () => createDocprocClient({ baseUrl: BASE_URL, apiKey: KEY, fetch: docprocFetch }),
  };
  const files = {
    'a File': () => new File([pdf], 'invoice.pdf', { type: 'application/pdf' }),
    'bytes and a name': () => ({ name: 'invoice.pdf', data: pdf }),
  };

  describe(`under vitest's ${environment} environment`, () => {
    for (const [target, client] of Object.entries(clients))
      it.each(Object.keys(files) as (keyof typeof files)[])(
        `the typed client uploads %s of text.pdf to ${target}, waits for it and finds it`,
        async (file) => {
          const docproc = client();
          const upload = await docproc.uploadDocuments([files[file]()]);
          expect(upload.error).toBeUndefined();
          const [sent] = upload.data!.documents;
          const done = await docproc.waitForDocument(sent!.document_id, { timeoutMs: 20_000 });
          expect(done.data).toMatchObject({ status: 'completed', content: expect.stringContaining('PELICAN') });
          const found = await docproc.listDocuments({ search: 'pelican' });
          expect(found.data?.documents.map((d) => d.document_id)).toContain(sent!.document_id);
        },
      );
  });
}
