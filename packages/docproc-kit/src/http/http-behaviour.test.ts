import { mkdir, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import {
  contractFetch,
  fixture,
  type RunningReferenceServer,
  startReferenceServer,
  until,
} from '@docproc-kit/test-support/reference-server.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Cross-cutting HTTP behaviour: request ids, CORS, request logging, and the 500 path.
const KEY = 'behaviour-secret-key';
const API = '/api/v1/documents';
const lines: Array<Record<string, unknown>> = [];
const raw: string[] = [];
let server: RunningReferenceServer;
let contract: Contract;
let call: ReturnType<typeof contractFetch>;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  [server, contract] = await Promise.all([startReferenceServer({ apiKeys: [KEY], logger: pino({ level: 'info' }, sink) }), loadContract()]);
  call = contractFetch(server, contract);
});
afterAll(() => server?.close());

const problemSchema = () => contract.document.components!.schemas!.Problem as object;

describe('X-Request-Id', () => {
  const requests: Array<[string, () => Promise<Response>]> = [
    [
      'a list (200)',
      () => fetch(`${server.baseUrl}${API}/get_documents`, { headers: { 'x-api-key': KEY, 'x-request-id': 'client-id-123' } }),
    ],
    ['a missing key (401)', () => fetch(`${server.baseUrl}${API}/get_documents`, { headers: { 'x-request-id': 'client-id-123' } })],
    [
      'a bad parameter (400)',
      () => fetch(`${server.baseUrl}${API}/get_documents?limit=0`, { headers: { 'x-api-key': KEY, 'x-request-id': 'client-id-123' } }),
    ],
    [
      'an unknown id (404)',
      () => fetch(`${server.baseUrl}${API}/get_document/999`, { headers: { 'x-api-key': KEY, 'x-request-id': 'client-id-123' } }),
    ],
    [
      'a wrong method (405)',
      () =>
        fetch(`${server.baseUrl}${API}/get_documents`, { method: 'PUT', headers: { 'x-api-key': KEY, 'x-request-id': 'client-id-123' } }),
    ],
    ['an unknown path (404)', () => fetch(`${server.baseUrl}/nowhere`, { headers: { 'x-request-id': 'client-id-123' } })],
    [
      'a CORS preflight (204)',
      () =>
        fetch(`${server.baseUrl}${API}/get_documents`, {
          method: 'OPTIONS',
          headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'x-request-id': 'client-id-123' },
        }),
    ],
    ['the docs page', () => fetch(`${server.baseUrl}/docs`, { headers: { 'x-request-id': 'client-id-123' } })],
    ['the contract', () => fetch(`${server.baseUrl}/openapi.json`, { headers: { 'x-request-id': 'client-id-123' } })],
  ];

  it.each(requests)('is echoed on %s', async (_what, send) => {
    const res = await send();
    expect(res.headers.get('x-request-id')).toBe('client-id-123');
    if (res.status >= 400) expect((await res.json()).request_id).toBe('client-id-123');
  });

  it.each([
    ['too long', 'x'.repeat(201)],
    ['with a space', 'two words'],
    ['empty', ''],
    ['non-ASCII', 'caf\u00e9'],
  ])('is replaced by a UUID when the client’s is %s', async (_what, id) => {
    const res = await fetch(`${server.baseUrl}${API}/get_documents`, { headers: { 'x-api-key': KEY, 'x-request-id': id } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('exactly 200 visible characters are echoed', async () => {
    const id = '!~'.repeat(100);
    const res = await fetch(`${server.baseUrl}${API}/get_documents`, { headers: { 'x-api-key': KEY, 'x-request-id': id } });
    expect(res.headers.get('x-request-id')).toBe(id);
  });
});

describe('CORS for browser apps on other origins', () => {
  it('answers a preflight without a key, allowing x-api-key', async () => {
    const res = await fetch(`${server.baseUrl}${API}/upload_files`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, idempotency-key',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/x-api-key/);
    expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/);
  });

  it('exposes X-Request-Id and Retry-After to the page on real responses, errors included', async () => {
    for (const headers of [{ origin: 'https://app.example', 'x-api-key': KEY }, { origin: 'https://app.example' }] as Array<
      Record<string, string>
    >) {
      const res = await fetch(`${server.baseUrl}${API}/get_documents`, { headers });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id.*Retry-After/);
    }
  });

  it('with configured origins, allows those and no others', async () => {
    const strict = await startReferenceServer({ corsOrigins: ['https://app.example', 'http://localhost:5173'] });
    try {
      const preflight = (origin: string) =>
        fetch(`${strict.baseUrl}${API}/get_documents`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } });
      expect((await preflight('http://localhost:5173')).headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await strict.close();
    }
  });
});

describe('request logging', () => {
  it('writes one line per request with its id, method, path, status, duration and tenant, and never the key', async () => {
    const ids = ['log-a', 'log-b', 'log-c'];
    await fetch(`${server.baseUrl}${API}/get_documents?search=x`, { headers: { 'x-api-key': KEY, 'x-request-id': ids[0]! } });
    await fetch(`${server.baseUrl}${API}/get_document/123`, { headers: { 'x-api-key': KEY, 'x-request-id': ids[1]! } });
    await fetch(`${server.baseUrl}${API}/get_documents`, { headers: { 'x-api-key': 'wrong-key-value', 'x-request-id': ids[2]! } });
    const byId = (id: string) => lines.filter((l) => l.requestId === id);
    // A line is written when its response closes, which may come after the client has the answer.
    await until(() => ids.every((id) => byId(id).length > 0), 5_000);
    expect(ids.map((id) => byId(id).length)).toEqual([1, 1, 1]);
    expect(byId('log-a')[0]).toMatchObject({
      req: { method: 'GET', url: `${API}/get_documents?search=x` },
      res: { statusCode: 200 },
      durationMs: expect.any(Number),
      tenant: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(byId('log-b')[0]).toMatchObject({ res: { statusCode: 404 }, tenant: byId('log-a')[0]!.tenant });
    expect(byId('log-c')[0]).toMatchObject({ res: { statusCode: 401 } });
    expect(byId('log-c')[0]!.tenant).toBeUndefined();
    expect(raw.join('\n')).not.toContain(KEY);
    expect(raw.join('\n')).not.toContain('wrong-key-value');
  });

  it('logs the path the client asked for, also under a router mounted on a prefix (the API reference assets)', async () => {
    const res = await fetch(`${server.baseUrl}/docs/assets/swagger-ui.css`, { headers: { 'x-request-id': 'log-asset' } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await until(() => lines.some((l) => l.requestId === 'log-asset'), 5_000);
    expect(lines.find((l) => l.requestId === 'log-asset')).toMatchObject({ req: { method: 'GET', url: '/docs/assets/swagger-ui.css' } });
  });
});

describe('an unexpected failure', () => {
  it('is a 500 internal_error problem without internals, logged with its stack, and the server carries on', async () => {
    const tmp = server.service.scratchDir;
    await rm(tmp, { recursive: true });
    try {
      const body = new FormData();
      body.append('files[]', await fixture('text.pdf'), 'text.pdf');
      const res = await call('uploadDocuments', `${API}/upload_files`, { method: 'POST', body, headers: { 'x-request-id': 'boom-1' } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        detail: 'The server failed to handle this request; quote the request id when reporting it.',
        code: 'internal_error',
        instance: `${API}/upload_files`,
        request_id: 'boom-1',
      });
      const logged = lines.find((l) => l.requestId === 'boom-1' && l.err);
      expect((logged?.err as { stack?: string } | undefined)?.stack).toMatch(/ENOENT/);
    } finally {
      await mkdir(tmp);
    }
    const body = new FormData();
    body.append('files[]', await fixture('text.pdf'), 'text.pdf');
    expect((await call('uploadDocuments', `${API}/upload_files`, { method: 'POST', body })).status).toBe(202);
  });

  it('a path that is not valid percent-encoding is a 400 problem, not a 500', async () => {
    const res = await fetch(`${server.baseUrl}${API}/get_document/%E0%A4%A`, { headers: { 'x-api-key': KEY } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(contract.validate(problemSchema(), body).errors).toEqual([]);
    expect(body.code).toBe('invalid_request');
  });
});
