// @vitest-environment happy-dom
import { getResponse } from 'msw';
import { afterAll, describe, expect, it } from 'vitest';
import { createDocprocFetch } from './docproc-fetch.js';
import { createDocprocHandlers } from './msw.js';

// In a page, an app that reaches the service on its own origin says so with a relative baseUrl, resolved
// against the page's location (happy-dom gives the page one; Node has none: base-url.test.ts).
const KEY = { 'x-api-key': 'docproc-dev-key' };
const here = createDocprocHandlers({ baseUrl: '/', processingDelayMs: 0 });
const underPath = createDocprocHandlers({ baseUrl: '/docproc', processingDelayMs: 0 });
const hereFetch = createDocprocFetch({ baseUrl: '/', processingDelayMs: 0 });
afterAll(() => Promise.all([here.close(), underPath.close(), hereFetch.close()]));

const statusFrom = async (handlers: typeof here, url: string) => (await getResponse(handlers, new Request(url, { headers: KEY })))?.status;

describe("a relative baseUrl in a page is the page's own origin", () => {
  it.each([
    { handlers: 'baseUrl: /', path: '/api/v1/documents/get_documents', status: 200 },
    { handlers: 'baseUrl: /', path: '/_mock/settings', status: 200 },
    { handlers: 'baseUrl: /docproc', path: '/docproc/api/v1/documents/get_documents', status: 200 },
    { handlers: 'baseUrl: /docproc', path: '/api/v1/documents/get_documents', status: undefined },
  ])('with $handlers, the handlers answer $path on the page origin with $status', async ({ handlers, path, status }) => {
    expect(await statusFrom(handlers === 'baseUrl: /' ? here : underPath, `${location.origin}${path}`)).toBe(status);
  });

  it('leaves the same path on another origin to MSW', async () => {
    expect(await statusFrom(here, 'https://elsewhere.example.com/api/v1/documents/get_documents')).toBeUndefined();
  });

  it('has the fetch mock answer on the page origin and fail elsewhere, naming the resolved base', async () => {
    const answer = await hereFetch(`${location.origin}/api/v1/documents/get_documents`, { headers: KEY });
    expect([answer.status, (await answer.json()).pagination.total]).toEqual([200, 0]);
    await expect(hereFetch('https://elsewhere.example.com/api/v1/documents/get_documents', { headers: KEY })).rejects.toThrow(
      `the docproc mock answers only under ${location.origin}/, not https://elsewhere.example.com/`,
    );
  });
});
