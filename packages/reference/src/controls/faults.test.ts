import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import {
  contractFetch,
  fixture,
  type RunningReferenceServer,
  startReferenceInProcess,
} from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// HTTP fault injection through the mock controls, over HTTP against a real server: what a UI
// team sets up to build its error, retry and loading states.
const KEY = 'faulty-key';
const OTHER = 'calm-key';
const API = '/api/v1/documents';
let server: RunningReferenceServer;
let contract: Contract;
let call: ReturnType<typeof contractFetch>;

beforeAll(async () => {
  [server, contract] = await Promise.all([startReferenceInProcess({ apiKeys: [KEY, OTHER] }), loadContract()]);
  call = contractFetch(server, contract);
});
afterAll(() => server?.close());
beforeEach(async () => {
  await control('POST', '/reset');
});

async function control(method: string, path: string, body?: unknown, apiKey = KEY) {
  const res = await server.fetch(`${server.baseUrl}/_mock${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const list = (apiKey = KEY) => call('listDocuments', `${API}/get_documents`, { apiKey });

describe('injected errors', () => {
  it.each([
    { status: 503, code: 'service_unavailable', retryAfter: '7' },
    { status: 429, code: 'too_many_requests', retryAfter: '7' },
    { status: 500, code: 'internal_error', retryAfter: null },
  ])(
    'a rate of 1 answers every list $status $code as the contract documents it (Retry-After $retryAfter)',
    async ({ status, code, retryAfter }) => {
      const set = await control('PATCH', '/faults', { errors: { listDocuments: { rate: 1, status, retry_after_s: 7 } } });
      expect(set.status).toBe(200);
      expect(set.body.errors.listDocuments).toEqual({ rate: 1, status, retry_after_s: 7 });
      // contractFetch throws unless status, problem body, X-Request-Id and Retry-After match the contract.
      const res = await list();
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ status, code });
      expect(res.body.detail).toContain('mock controls');
      expect(res.headers.get('retry-after')).toBe(retryAfter);
    },
  );

  it("touches only the chosen operation and only the caller's tenant", async () => {
    await control('PATCH', '/faults', { errors: { listDocuments: { rate: 1, status: 503 } } });
    expect((await list()).status).toBe(503);
    expect((await list(OTHER)).status).toBe(200);
    expect((await call('getDocument', `${API}/get_document/999`)).status).toBe(404);
  });

  it('answers about that share of requests when the rate is 0.5', async () => {
    await control('PATCH', '/faults', { errors: { listDocuments: { rate: 0.5, status: 500 } } });
    const statuses = await Promise.all(Array.from({ length: 100 }, async () => (await list()).status));
    const failed = statuses.filter((s) => s === 500).length;
    // Binomial(100, 0.5): outside 25..75 once in millions of runs.
    expect(failed).toBeGreaterThanOrEqual(25);
    expect(failed).toBeLessThanOrEqual(75);
    expect(statuses.filter((s) => s !== 500 && s !== 200)).toEqual([]);
  });

  it('refuses an upload before reading it, and stores nothing', async () => {
    await control('PATCH', '/faults', { errors: { uploadDocuments: { rate: 1, status: 503, retry_after_s: 1 } } });
    const body = new FormData();
    body.append('files[]', await fixture('text.pdf'), 'text.pdf');
    const res = await call('uploadDocuments', `${API}/upload_files`, { method: 'POST', body });
    expect(res.status).toBe(503);
    expect((await list()).body.pagination.total).toBe(0);
  });

  it('is cleared per operation with null, and wholly by a reset', async () => {
    await control('PATCH', '/faults', { errors: { listDocuments: { rate: 1, status: 503 }, getDocument: { rate: 1, status: 429 } } });
    const cleared = await control('PATCH', '/faults', { errors: { listDocuments: null } });
    expect(Object.keys(cleared.body.errors)).toEqual(['getDocument']);
    expect((await list()).status).toBe(200);
    const reset = await control('POST', '/reset');
    expect(reset.body.faults).toEqual({ latency_ms: 0, jitter_ms: 0, errors: {} });
    expect((await call('getDocument', `${API}/get_document/1`)).status).toBe(404);
  });
});

describe('injected latency', () => {
  const timed = async () => {
    const started = performance.now();
    await list();
    return performance.now() - started;
  };

  it('adds the fixed latency to every request of the tenant', async () => {
    await control('PATCH', '/faults', { latency_ms: 300 });
    expect(await timed()).toBeGreaterThanOrEqual(295);
    expect(
      await (async () => {
        const started = performance.now();
        await list(OTHER);
        return performance.now() - started;
      })(),
    ).toBeLessThan(295);
  });

  it('adds a random jitter on top, never below the fixed part', async () => {
    await control('PATCH', '/faults', { latency_ms: 100, jitter_ms: 400 });
    const times = await Promise.all(Array.from({ length: 12 }, timed));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(95);
    // Twelve uniform draws over 0..400 ms spread out; identical times would mean no jitter.
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(50);
  }, 20_000);
});

describe('PATCH /_mock/faults refuses what it cannot apply', () => {
  it.each([
    { name: 'an unknown operation', body: { errors: { deleteDocument: { rate: 1, status: 500 } } }, field: 'errors.deleteDocument' },
    {
      name: 'a status it cannot inject',
      body: { errors: { listDocuments: { rate: 1, status: 404 } } },
      field: 'errors.listDocuments.status',
    },
    { name: 'a rate over 1', body: { errors: { listDocuments: { rate: 2, status: 500 } } }, field: 'errors.listDocuments.rate' },
    { name: 'a negative latency', body: { latency_ms: -1 }, field: 'latency_ms' },
    { name: 'a latency over a minute', body: { latency_ms: 60_001 }, field: 'latency_ms' },
    { name: 'an unknown field', body: { latency: 300 }, field: 'latency' },
  ])('$name: 400 naming $field, nothing changed', async ({ body, field }) => {
    const res = await control('PATCH', '/faults', body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { name: string }) => e.name)).toContain(field);
    expect((await control('GET', '/faults')).body).toEqual({ latency_ms: 0, jitter_ms: 0, errors: {} });
  });
});
