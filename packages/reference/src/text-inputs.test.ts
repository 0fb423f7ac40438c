import { readFile } from 'node:fs/promises';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { type RunningReferenceServer, startReferenceInProcess, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Text no store can hold as sent (a NUL; a lone surrogate in JSON) and query strings past a parser's
// limit, against real servers on every store: each is a 400 naming the field, and nothing is stored.
const API = '/api/v1/documents';
const KEY = 'text-inputs-key';
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

const TARGETS: Array<{ name: string; start: () => Promise<RunningReferenceServer> }> = [
  { name: 'lowdb over HTTP', start: () => startReferenceServer({ apiKeys: [KEY] }) },
  {
    name: 'PostgreSQL over HTTP',
    start: async () => startReferenceServer({ apiKeys: [KEY], databaseUrl: await cluster.createDatabase() }),
  },
  { name: 'memory in-process (fetch)', start: () => startReferenceInProcess({ apiKeys: [KEY], store: 'memory' }) },
];

// An upload whose one part's filename is given as `filename*` (RFC 5987), percent-encoded.
async function uploadNamed(server: RunningReferenceServer, encodedName: string) {
  const boundary = 'text-inputs-boundary';
  const pdf = await readFile(fixturePath('text.pdf'));
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename*=UTF-8''${encodedName}\r\nContent-Type: application/pdf\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), pdf, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return server.fetch(`${server.baseUrl}${API}/upload_files`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
}
const postJson = (server: RunningReferenceServer, path: string, body: string) =>
  server.fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body });
const get = (server: RunningReferenceServer, path: string) => server.fetch(`${server.baseUrl}${path}`, { headers: { 'x-api-key': KEY } });

describe.each(TARGETS)('the reference server on $name', ({ start }) => {
  let server: RunningReferenceServer;
  let id: number;
  beforeAll(async () => {
    server = await start();
    const seeded = await postJson(
      server,
      '/_mock/seed',
      JSON.stringify({ documents: [{ filename: 'kept.pdf', status: 'completed', content: 'Kept' }] }),
    );
    id = (await seeded.json()).documents[0].document_id;
  }, 60_000);
  afterAll(() => server?.close());

  const CASES: Array<{ name: string; send: () => Promise<Response>; field: string }> = [
    { name: 'a NUL in search', send: () => get(server, `${API}/get_documents?search=a%00b`), field: 'search' },
    { name: 'a NUL in an upload’s filename*', send: () => uploadNamed(server, 'scan%00.pdf'), field: 'files[]' },
    {
      name: 'a NUL in a seeded filename',
      send: () => postJson(server, '/_mock/seed', '{"documents":[{"status":"completed","filename":"a\\u0000.pdf"}]}'),
      field: 'documents[0].filename',
    },
    {
      name: 'a NUL in a seeded content',
      send: () => postJson(server, '/_mock/seed', '{"documents":[{"status":"completed","content":"x\\u0000"}]}'),
      field: 'documents[0].content',
    },
    {
      name: 'a lone surrogate in a seeded error message',
      send: () =>
        postJson(server, '/_mock/seed', '{"documents":[{"status":"failed","error":{"code":"processing_error","message":"\\ud800"}}]}'),
      field: 'documents[0].error',
    },
    {
      name: 'a NUL in a forced outcome’s content',
      send: () => postJson(server, `/_mock/documents/${id}/next-outcome`, '{"outcome":"completed","content":"\\u0000"}'),
      field: 'content',
    },
    {
      name: 'a NUL in a forced outcome’s error message',
      send: () =>
        postJson(
          server,
          `/_mock/documents/${id}/next-outcome`,
          '{"outcome":"failed","error":{"code":"processing_error","message":"a\\u0000"}}',
        ),
      field: 'error',
    },
    {
      name: 'a bad limit after 1,000 other parameters',
      send: () => get(server, `${API}/get_documents?${'unknown=1&'.repeat(1000)}limit=0`),
      field: 'limit',
    },
  ];

  it.each(CASES)('answers $name with a 400 naming $field, and stores nothing', async ({ send, field }) => {
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = await res.json();
    expect(problem.code).toBe('invalid_request');
    expect(problem.errors.map((e: { name: string }) => e.name)).toContain(field);
    const list = await (await get(server, `${API}/get_documents`)).json();
    expect(list.documents.map((d: { filename: string }) => d.filename)).toEqual(['kept.pdf']);
    expect((await (await get(server, `${API}/get_document/${id}`)).json()).content).toBe('Kept');
  });

  it('reads search and limit after 1,000 other parameters', async () => {
    const page = await (await get(server, `${API}/get_documents?${'unknown=1&'.repeat(1000)}search=nothing-like-it&limit=5`)).json();
    expect(page.pagination).toMatchObject({ limit: 5, total: 0 });
  });
});
