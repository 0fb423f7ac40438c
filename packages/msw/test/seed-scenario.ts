import { createDocprocClient } from '@docproc-kit/client';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocprocFetch } from '../src/docproc-fetch.js';
import { createDocprocHandlers } from '../src/msw.js';
import { RECORDING } from './recording-sample.js';

const BASE_URL = 'http://docproc.test';
const KEY = 'docproc-dev-key';

/**
 * The MSW handlers and the fetch mock started from {@link RECORDING} (the `seed` option), in the environment
 * the calling test file declares: the documents listed newest first with their attempts, found by a word
 * of their text in their script, and the recorded failure retried as the contract says.
 */
export function describeSeed(environment: string): void {
  const handlers = createDocprocHandlers({ baseUrl: BASE_URL, processingDelayMs: 0, seed: RECORDING });
  const server = setupServer(...handlers);
  const docprocFetch = createDocprocFetch({ baseUrl: BASE_URL, processingDelayMs: 0, seed: RECORDING });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(async () => {
    server.close();
    await Promise.all([handlers.close(), docprocFetch.close()]);
  });
  const clients = {
    'the MSW handlers': () => createDocprocClient({ baseUrl: BASE_URL, apiKey: KEY }),
    'the fetch mock': () => createDocprocClient({ baseUrl: BASE_URL, apiKey: KEY, fetch: docprocFetch }),
  };

  describe(`a recording as the seed option, under vitest's ${environment} environment`, () => {
    it.each(Object.keys(clients) as (keyof typeof clients)[])('%s answer its documents, and retry its failure', async (target) => {
      const docproc = clients[target]();
      const listed = await docproc.listDocuments();
      expect(listed.data?.documents.map((d) => [d.filename, d.status, d.attempts])).toEqual([
        ['scan 2024-05-02.png', 'failed', 2],
        ['請求書.pdf', 'completed', 2],
        ['Счёт-фактура №17.pdf', 'completed', 1],
      ]);
      const found = await docproc.listDocuments({ search: 'ромашка' });
      expect(found.data?.documents.map((d) => d.filename)).toEqual(['Счёт-фактура №17.pdf']);
      expect((await docproc.listDocuments({ search: '丸の内' })).data?.documents.map((d) => d.filename)).toEqual(['請求書.pdf']);
      const failed = listed.data!.documents[0]!;
      const retried = await docproc.retryDocument(failed.document_id);
      expect(retried.response.status).toBe(202);
      expect(retried.data).toMatchObject({ status: 'processing', attempts: 3, error: null, content: null });
      const done = await docproc.waitForDocument(failed.document_id, { timeoutMs: 20_000 });
      expect(done.data).toMatchObject({ attempts: 3, status: 'completed' });
    });
  });
}
