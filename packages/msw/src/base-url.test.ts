import { getResponse } from 'msw';
import { afterAll, describe, expect, it } from 'vitest';
import { createDocprocFetch } from './docproc-fetch.js';
import { createDocprocHandlers } from './msw.js';

// Which requests the handlers take (msw's own matching, through getResponse) and the fetch mock answers.
const KEY = { 'x-api-key': 'docproc-dev-key' };
const anywhere = createDocprocHandlers({ processingDelayMs: 0 });
const based = createDocprocHandlers({ baseUrl: 'https://docproc.example.com/base/', processingDelayMs: 0 });
const fetchBased = createDocprocFetch({ baseUrl: 'https://docproc.example.com/base', processingDelayMs: 0 });
afterAll(() => Promise.all([anywhere.close(), based.close(), fetchBased.close()]));

const statusFrom = async (handlers: typeof anywhere, url: string) =>
  (await getResponse(handlers, new Request(url, { headers: KEY })))?.status;

describe('createDocprocHandlers matches the API and the controls', () => {
  it.each([
    { url: 'http://localhost:5173/api/v1/documents/get_documents', status: 200 },
    { url: 'https://b.example:8443/_mock/settings', status: 200 },
    { url: 'http://localhost:5173/api/v1/no-such-operation', status: 404 },
    { url: 'http://localhost:5173/api/v2/documents/get_documents', status: undefined },
    { url: 'http://localhost:5173/openapi.json', status: undefined },
    { url: 'http://localhost:5173/app/api/v1/documents/get_documents', status: undefined },
  ])('on any origin without baseUrl: $url is $status', async ({ url, status }) => {
    expect(await statusFrom(anywhere, url)).toBe(status);
  });

  it.each([
    { url: 'https://docproc.example.com/base/api/v1/documents/get_documents', status: 200 },
    { url: 'https://docproc.example.com/base/_mock/faults', status: 200 },
    { url: 'https://docproc.example.com/api/v1/documents/get_documents', status: undefined },
    { url: 'https://other.example.com/base/api/v1/documents/get_documents', status: undefined },
    { url: 'http://docproc.example.com/base/api/v1/documents/get_documents', status: undefined },
  ])('only under baseUrl when given: $url is $status', async ({ url, status }) => {
    expect(await statusFrom(based, url)).toBe(status);
  });
});

describe('createDocprocFetch with a baseUrl', () => {
  it('answers under it, a path the API does not own as a 404 problem, and fails elsewhere as an unreachable host does', async () => {
    expect((await fetchBased('https://docproc.example.com/base/api/v1/documents/get_documents', { headers: KEY })).status).toBe(200);
    const unknown = await fetchBased('https://docproc.example.com/base/openapi.json', { headers: KEY });
    expect([unknown.status, (await unknown.json()).code]).toEqual([404, 'not_found']);
    await expect(fetchBased('https://other.example.com/api/v1/documents/get_documents', { headers: KEY })).rejects.toThrow(TypeError);
  });

  it('rejects with the signal reason when the call is aborted first', async () => {
    const aborted = fetchBased('https://docproc.example.com/base/api/v1/documents/get_documents', {
      headers: KEY,
      signal: AbortSignal.abort(),
    });
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
  });
});
