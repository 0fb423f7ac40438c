import { readFile } from 'node:fs/promises';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { createDocprocFetch, type DocprocFetch } from '@docproc-kit/msw/fetch';
import { afterEach, describe, expect, it } from 'vitest';
import { createDocprocClient, type DocprocClientOptions } from './index.js';

// The client's resilience against the reference core in this process (createDocprocFetch), with the network
// between them made unreliable by a fetch wrapper: answers lost after the server handled the request,
// connections refused, gateways answering 503 with Retry-After.
const BASE = 'http://docproc.test';
const KEY = 'docproc-dev-key';
const pdf = () => readFile(fixturePath('text.pdf'));
let mock: DocprocFetch;
afterEach(() => mock?.close());

type Fault = 'lose-answer' | 'refuse' | { status: number; retryAfterS?: number };
/** A network in front of the mock: `faults(request, n)` decides what happens to the n-th request (1-based). */
function network(faults: (request: Request, n: number) => Fault | undefined) {
  mock = createDocprocFetch({ baseUrl: BASE, processingDelayMs: 0 });
  const sent: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push(request.clone());
    const fault = faults(request, sent.length);
    if (fault === 'refuse') throw new TypeError('fetch failed');
    if (typeof fault === 'object') {
      const headers: Record<string, string> = fault.retryAfterS === undefined ? {} : { 'Retry-After': String(fault.retryAfterS) };
      return new Response('<html>busy</html>', { status: fault.status, headers });
    }
    const answer = await mock(request);
    if (fault === 'lose-answer') throw new TypeError('fetch failed: socket hang up');
    return answer;
  };
  const client = (options: Partial<DocprocClientOptions> = {}) => createDocprocClient({ baseUrl: BASE, apiKey: KEY, fetch, ...options });
  return { client, sent };
}
const isUpload = (request: Request) => new URL(request.url).pathname.endsWith('/upload_files');

describe('the client with retry on', () => {
  it('repeats an upload whose answer was lost under its own Idempotency-Key: one document stored, the first 202 replayed', async () => {
    const { client, sent } = network((request, n) => (isUpload(request) && n === 1 ? 'lose-answer' : undefined));
    const { data, error, response } = await client({ retry: { attempts: 3, maxDelayMs: 50 } }).uploadDocuments([
      { name: 'a.pdf', data: await pdf() },
    ]);
    expect(error).toBeUndefined();
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    const keys = sent.map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const listed = await client().listDocuments();
    expect(listed.data!.pagination.total).toBe(1);
    expect(listed.data!.documents[0]!.document_id).toBe(data!.documents[0]!.document_id);
  });

  it("uses the caller's Idempotency-Key when given, and sends none with retry off", async () => {
    const { client, sent } = network(() => undefined);
    await client({ retry: true }).uploadDocuments([{ name: 'a.pdf', data: await pdf() }], { idempotencyKey: 'mine-1' });
    await client({ retry: true }).uploadDocuments([{ name: 'b.pdf', data: await pdf() }], { headers: { 'idempotency-key': 'mine-2' } });
    await client().uploadDocuments([{ name: 'c.pdf', data: await pdf() }]);
    expect(sent.map((r) => r.headers.get('idempotency-key'))).toEqual(['mine-1', 'mine-2', null]);
  });

  it('waits out a 503 for its Retry-After before reading again, and returns at once a Retry-After longer than maxDelayMs', async () => {
    const { client, sent } = network((_request, n) => (n === 1 ? { status: 503, retryAfterS: 1 } : undefined));
    const started = Date.now();
    const read = await client({ retry: { attempts: 3, maxDelayMs: 5_000 } }).listDocuments();
    expect(read.data?.pagination.total).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(sent).toHaveLength(2);

    const impatient = network(() => ({ status: 429, retryAfterS: 60 }));
    const refused = await impatient.client({ retry: { attempts: 5, maxDelayMs: 1_000 } }).getDocument(1);
    expect(refused.error).toMatchObject({ status: 429 });
    expect(impatient.sent).toHaveLength(1);
  });

  it('reads again after network errors, up to its attempts, then throws the last one', async () => {
    const flaky = network((_request, n) => (n <= 2 ? 'refuse' : undefined));
    expect((await flaky.client({ retry: { attempts: 3, maxDelayMs: 20 } }).listDocuments()).data).toBeDefined();
    const down = network(() => 'refuse');
    await expect(down.client({ retry: { attempts: 2, maxDelayMs: 20 } }).getDocument(1)).rejects.toThrow('fetch failed');
    expect(down.sent).toHaveLength(2);
  });

  it('never sends retryDocument twice after a lost answer: it reads the document, which the first request set processing', async () => {
    const { client, sent } = network((request) => (request.url.includes('/retry_documents/') ? 'lose-answer' : undefined));
    const [seeded] = await mock.controls.seed([{ status: 'failed' }]);
    await mock.controls.settings({ processing_delay_ms: 60_000 });
    const result = await client({ retry: { attempts: 3, maxDelayMs: 20 } }).retryDocument(seeded!.document_id);
    expect(result.data).toMatchObject({ status: 'processing', attempts: 2 });
    expect(sent.map((r) => `${r.method} ${new URL(r.url).pathname.split('/')[4]}`)).toEqual(['POST retry_documents', 'GET get_document']);
  });

  it('sends retryDocument again after a 503, which changed nothing', async () => {
    const { client, sent } = network((_request, n) => (n === 1 ? { status: 503, retryAfterS: 0 } : undefined));
    const [seeded] = await mock.controls.seed([{ status: 'completed' }]);
    expect((await client({ retry: { attempts: 2, maxDelayMs: 20 } }).retryDocument(seeded!.document_id)).data).toMatchObject({
      attempts: 2,
    });
    expect(sent).toHaveLength(2);
  });

  it('stops waiting between attempts when the call is aborted', async () => {
    const { client } = network(() => ({ status: 503, retryAfterS: 5 }));
    const started = Date.now();
    const aborted = await client({ retry: { attempts: 3, maxDelayMs: 10_000 } })
      .listDocuments({}, { signal: AbortSignal.timeout(100) })
      .catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('the client, whatever its retry option', () => {
  it('takes per-call headers on every method', async () => {
    const { client, sent } = network(() => undefined);
    const docproc = client();
    const headers = { 'x-trace': 'per-call' };
    const { data } = await docproc.uploadDocuments([{ name: 'a.pdf', data: await pdf() }], { headers });
    const id = data!.documents[0]!.document_id;
    await docproc.waitForDocument(id, { headers });
    await docproc.getDocument(id, { headers });
    await docproc.listDocuments({}, { headers });
    await docproc.retryDocument(id, { headers });
    for await (const _ of docproc.iterateDocuments({}, { headers })) break;
    expect(sent.map((r) => r.headers.get('x-trace'))).toEqual(Array(sent.length).fill('per-call'));
    expect(sent.length).toBeGreaterThanOrEqual(6);
  });

  it('waitForDocument rides out 503s for their Retry-After, and returns a 404 at once', async () => {
    const { client } = network((_request, n) => (n === 2 || n === 3 ? { status: 503, retryAfterS: 0 } : undefined));
    const docproc = client();
    const { data } = await docproc.uploadDocuments([{ name: 'a.pdf', data: await pdf() }]);
    const done = await docproc.waitForDocument(data!.documents[0]!.document_id, { timeoutMs: 10_000, initialIntervalMs: 10 });
    expect(done.data).toMatchObject({ status: 'completed' });
    expect((await docproc.waitForDocument(999, { timeoutMs: 10_000 })).error).toMatchObject({ status: 404 });
  });
});
