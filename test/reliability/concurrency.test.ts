import { createDocprocClient, type DocprocClient } from '@docproc-kit/client';
import { startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Many writers at once against the real server and its real lowdb file.
type Server = Awaited<ReturnType<typeof startReferenceServer>>;
let server: Server;
let client: DocprocClient;
beforeAll(async () => {
  // Runs last long enough that all 20 concurrent retries arrive while the first one's run is going.
  // The 200 concurrent uploads below come from one address, within the default per-address connection cap.
  server = await startReferenceServer({ processingDelayMs: 1_500 });
  client = createDocprocClient({ baseUrl: server.baseUrl, apiKey: 'docproc-dev-key' });
});
afterAll(() => server?.close());

const pdf = (i: number) => ({
  name: `concurrent-${i}.pdf`,
  data: new TextEncoder().encode(`%PDF-1.4\n% ${i}\n%%EOF\n`),
  type: 'application/pdf',
});

describe('concurrent clients', () => {
  it('200 concurrent uploads get 200 distinct ids, all listed, while lists and searches keep answering', async () => {
    const readerErrors: string[] = [];
    let uploadsDone = false;
    // Readers hammer list and search for as long as the uploads run.
    const readers = Array.from({ length: 4 }, async (_, r) => {
      let reads = 0;
      while (!uploadsDone || reads === 0) {
        const { error, response } =
          r % 2 ? await client.listDocuments({ limit: 100 }) : await client.listDocuments({ search: 'concurrent-1' });
        if (error) readerErrors.push(`${response.status} ${error.code}`);
        reads++;
      }
      return reads;
    });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => client.uploadDocuments([pdf(i)])));
    uploadsDone = true;
    const reads = await Promise.all(readers);

    expect(results.map((r) => r.response.status)).toEqual(Array(200).fill(202));
    const ids = results.map((r) => r.data!.documents[0]!.document_id);
    expect(new Set(ids).size).toBe(200);
    const listed: number[] = [];
    for await (const doc of client.iterateDocuments({ limit: 100 })) listed.push(doc.document_id);
    expect(new Set(listed)).toEqual(new Set(ids));
    expect(readerErrors).toEqual([]);
    expect(reads.every((n) => n > 0)).toBe(true);
  }, 120_000);

  it('20 concurrent retries of one finished document: exactly one 202, the other 19 are 409 document_busy', async () => {
    const { data } = await client.uploadDocuments([pdf(9999)]);
    const id = data!.documents[0]!.document_id;
    expect((await client.waitForDocument(id, { timeoutMs: 30_000, initialIntervalMs: 50 })).data?.status).not.toBe('processing');
    const retries = await Promise.all(Array.from({ length: 20 }, () => client.retryDocument(id)));
    const statuses = retries.map((r) => r.response.status).sort();
    expect(statuses).toEqual([202, ...Array(19).fill(409)]);
    expect(retries.filter((r) => r.error).every((r) => r.error!.code === 'document_busy')).toBe(true);
    expect((await client.getDocument(id)).data?.attempts).toBe(2);
  }, 60_000);
});
