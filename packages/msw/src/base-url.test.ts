import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createDocprocFetch } from './docproc-fetch.js';
import { createDocprocHandlers } from './msw.js';

// Which requests the handlers take (msw's own matching, through getResponse) and the fetch mock answers.
const KEY = { 'x-api-key': 'docproc-dev-key' };
const anywhere = createDocprocHandlers({ anyOrigin: true, processingDelayMs: 0 });
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
  ])('on every origin with anyOrigin: $url is $status', async ({ url, status }) => {
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

describe('where the mock answers is said, never assumed', () => {
  const create = { createDocprocHandlers, createDocprocFetch } as Record<string, (options: unknown) => { close(): Promise<void> }>;
  it.each([
    ['no options', undefined, /needs baseUrl .* or anyOrigin: true/],
    ['neither baseUrl nor anyOrigin', { processingDelayMs: 0 }, /needs baseUrl .* or anyOrigin: true/],
    ['anyOrigin: false alone', { anyOrigin: false }, /needs baseUrl .* or anyOrigin: true/],
    ['both', { baseUrl: 'http://docproc.test', anyOrigin: true }, /either baseUrl or anyOrigin: true, not both/],
    ['a baseUrl ending in /api/v1', { baseUrl: 'http://docproc.test/api/v1' }, /without \/api\/v1/],
    [
      'a relative baseUrl where there is no page (Node)',
      { baseUrl: '/' },
      /^baseUrl '\/' is not an absolute URL .*pass .* e\.g\. baseUrl: 'http:\/\/docproc\.test'/,
    ],
    ['a baseUrl that is no URL at all', { baseUrl: 'docproc test' }, /^baseUrl 'docproc test' is not an absolute URL/],
  ])('with %s, both factories throw a TypeError saying what to give', (_what, options, message) => {
    for (const factory of Object.values(create)) expect(() => factory(options)).toThrow(message);
  });

  it("leaves a request to another origin, the app's own backend on /api/v1 too, to MSW's onUnhandledRequest", async () => {
    const mock = createDocprocHandlers({ baseUrl: 'http://docproc.test', processingDelayMs: 0 });
    const unhandled: string[] = [];
    const server = setupServer(...mock);
    server.listen({
      onUnhandledRequest: (request, print) => {
        unhandled.push(request.url);
        print.error();
      },
    });
    try {
      const mine = await fetch('http://docproc.test/api/v1/documents/get_documents', { headers: KEY });
      expect(mine.status).toBe(200);
      await expect(fetch('http://app.test/api/v1/documents/get_documents', { headers: KEY })).rejects.toThrow();
      expect(unhandled).toEqual(['http://app.test/api/v1/documents/get_documents']);
    } finally {
      server.close();
      await mock.close();
    }
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
