import { describe, expect, it } from 'vitest';
import { createDocprocFetch } from './docproc-fetch.js';
import { createDocprocHandlers } from './msw.js';

const BASE_URL = 'http://docproc.test';

describe('the seed option', () => {
  it.each([
    { name: 'an unknown status', seed: [{ status: 'done' }], message: /seed: documents\[0\]\.status must be one of/ },
    { name: 'a body without documents', seed: { files: [] }, message: /seed: documents must be an array/ },
    {
      name: "a body's unknown field",
      seed: [{ documents: [{ status: 'failed' }], owner: 'x' }],
      message: /seed: \[0\]\.owner unknown field/,
    },
    {
      name: 'a key the mock does not accept',
      seed: [{ api_key: 'not-ours', documents: [{ status: 'failed' }] }],
      message: /seed\[0\]\.api_key is not one of apiKeys/,
    },
  ])('refuses $name when the mock is created, with a TypeError naming it', ({ seed, message }) => {
    expect(() => createDocprocHandlers({ baseUrl: BASE_URL, seed: seed as never })).toThrow(TypeError);
    expect(() => createDocprocFetch({ baseUrl: BASE_URL, seed: seed as never })).toThrow(message);
  });

  it("takes a seed file's contents as a JSON import types them (a status is just a string)", async () => {
    const imported: { documents: Array<{ filename: string; status: string; content: string }> } = {
      documents: [{ filename: 'q3.pdf', status: 'completed', content: 'Q3 revenue' }],
    };
    const fetch = createDocprocFetch({ baseUrl: BASE_URL, processingDelayMs: 0, seed: imported });
    const found = await fetch(`${BASE_URL}/api/v1/documents/get_documents?search=revenue`, { headers: { 'x-api-key': 'docproc-dev-key' } });
    expect((await found.json()).documents.map((d: { filename: string }) => d.filename)).toEqual(['q3.pdf']);
    await fetch.close();
  });

  it('seeds each body for its key, and still takes a number as the seed of simulated failures', async () => {
    const fetch = createDocprocFetch({
      baseUrl: BASE_URL,
      apiKeys: ['first', 'second'],
      processingDelayMs: 0,
      seed: [{ documents: [{ status: 'completed', count: 2 }] }, { api_key: 'second', documents: [{ status: 'failed' }] }],
    });
    const total = async (key: string) =>
      (await (await fetch(`${BASE_URL}/api/v1/documents/get_documents`, { headers: { 'x-api-key': key } })).json()).pagination.total;
    expect([await total('first'), await total('second')]).toEqual([2, 1]);
    await fetch.close();
    const numbered = createDocprocFetch({ baseUrl: BASE_URL, seed: 42, failureRate: 0.5 });
    expect(
      await (await numbered(`${BASE_URL}/api/v1/documents/get_documents`, { headers: { 'x-api-key': 'docproc-dev-key' } })).json(),
    ).toMatchObject({
      pagination: { total: 0 },
    });
    await numbered.close();
  });
});
