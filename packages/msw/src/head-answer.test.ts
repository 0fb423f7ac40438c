import { afterAll, describe, expect, it } from 'vitest';
import { createDocprocFetch } from './docproc-fetch.js';

// Over HTTP a server never sends content with a HEAD answer (RFC 9110 section 9.3.2); the fetch mock hands its
// answer to the caller directly, so it must leave the body out itself.
const BASE = 'https://docproc.example.com';
const mock = createDocprocFetch({ baseUrl: BASE, processingDelayMs: 0 });
afterAll(() => mock.close());

describe('a HEAD request to the fetch mock', () => {
  it.each([
    { what: 'a list', path: '/api/v1/documents/get_documents', status: 200 },
    { what: 'a document that does not exist', path: '/api/v1/documents/get_document/999999', status: 404 },
    { what: 'a path the API does not own', path: '/api/v1/no-such-operation', status: 404 },
  ])('is answered as GET would be, without the body: $what', async ({ path, status }) => {
    const init = { headers: { 'x-api-key': 'docproc-dev-key' } };
    const get = await mock(new Request(`${BASE}${path}`, init));
    const head = await mock(new Request(`${BASE}${path}`, { ...init, method: 'HEAD' }));
    expect((await get.text()).length).toBeGreaterThan(0);
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([status, get.headers.get('content-type'), '']);
  });
});
