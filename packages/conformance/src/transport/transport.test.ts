import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileTarget } from '../../proofs/hostile-targets.js';
import { createTestRecord, type TestRecord } from '../definitions/records.js';
import { DIRECT } from '../definitions/transport-settings.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import { createJudge } from '../judging/judge.js';
import { createDispatcher } from './dispatcher.js';
import { createHttp } from './http.js';
import { sendWhileReading } from './race/release.js';
import { bodyCapFor, decodeBody, fetchBounded, type RawAnswer } from './transport.js';

const MIB = 1024 * 1024;
const limits = { timeoutMs: 10_000, maxBodyBytes: 2 * MIB };
const get = (baseUrl: string) => fetchBounded({ url: `${baseUrl}/x`, method: 'GET', headers: {} }, limits);

describe('fetchBounded reads at most the cap, whatever the target sends', () => {
  it.each([
    ['a 1 GiB body', 'huge-body', /^more than 2097152 bytes of body$/],
    ['an endless chunked body', 'endless-chunked', /^more than 2097152 bytes of body$/],
    ['a gzip bomb (1 GiB from 1 MiB)', 'gzip-bomb', /inflating more than 1000:1|more than 2097152 bytes/],
  ] as const)(
    '%s is cut at the cap and called too large',
    async (_, kind, received) => {
      const target = await startHostileTarget(kind);
      try {
        const answer = (await get(target.baseUrl)) as Extract<RawAnswer, { status: number }>;
        expect(answer.status).toBe(200);
        expect(answer.tooLarge?.received).toMatch(received);
        expect(answer.bytes.length).toBeLessThanOrEqual(2 * MIB);
      } finally {
        await target.close();
      }
    },
    30_000,
  );

  it('a target that drips a byte a second times out after the timeout, as reached (not "cannot reach")', async () => {
    const target = await startHostileTarget('drip');
    try {
      const answer = await fetchBounded({ url: `${target.baseUrl}/x`, method: 'GET', headers: {} }, { ...limits, timeoutMs: 1500 });
      expect(answer).toMatchObject({ error: 'no complete answer within 1500 ms', timedOut: true });
      expect('unreachable' in answer).toBe(false);
    } finally {
      await target.close();
    }
  }, 30_000);

  it('a closed port is unreachable', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    expect(await get(`http://127.0.0.1:${port}`)).toMatchObject({ error: 'ECONNREFUSED', unreachable: true });
  });

  it("a port fetch will not connect to (the Fetch standard's blocked ports) is unreachable", async () => {
    expect(await get('http://127.0.0.1:9')).toMatchObject({ error: 'bad port', unreachable: true });
  });
});

describe('decodeBody', () => {
  it('refuses JSON that is not UTF-8 (RFC 8259 §8.1), and decodes other types leniently for display', () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]);
    expect(decodeBody(bytes, true).invalidUtf8).toMatch(/not valid UTF-8/);
    expect(decodeBody(bytes, false)).toEqual({ text: '{"\ufffd"}' });
    expect(decodeBody(new TextEncoder().encode('{"é":1}'), true)).toEqual({ text: '{"é":1}' });
  });
});

describe('bodyCapFor', () => {
  it('is the per-file limit, at least 8 MiB and at most 64 MiB', () => {
    expect([undefined, 65_536, 26_214_400, 10 * 1024 * MIB].map(bodyCapFor)).toEqual([8 * MIB, 8 * MIB, 26_214_400, 64 * MIB]);
  });
});

// A server that closes the connection of a request marked `x-close-first` the first time it sees its
// request id (of one marked `x-close-always`, every time), before any byte of the answer; those answers
// close their connection, so each such request comes on a new one. One marked `x-close-kept` is closed so
// when its connection has carried an answer before, as a server ending an idle kept-alive connection does.
const contract = await loadContract();
const seen = new Set<string>();
const answered = new WeakSet<object>();
let served = 0;
let closedKept = 0;
const server = createServer((req, res) => {
  req.resume();
  const id = String(req.headers['x-request-id']);
  if (req.headers['x-close-always']) return req.socket.destroy();
  if (req.headers['x-close-first'] && !seen.has(id)) {
    seen.add(id);
    return req.socket.destroy();
  }
  if (req.headers['x-close-kept'] && answered.has(req.socket) && !seen.has(id)) {
    seen.add(id);
    closedKept++;
    return req.socket.destroy();
  }
  served++;
  answered.add(req.socket);
  const body = JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'none', code: 'not_found' });
  const closing = req.headers['x-close-first'] || req.headers['x-close-always'];
  res.writeHead(404, { 'content-type': 'application/problem+json', 'x-request-id': id, ...(closing ? { connection: 'close' } : {}) });
  res.end(body);
});
let baseUrl: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function recordingHttp(prefix: string, dispatcher?: Dispatcher): { http: ReturnType<typeof createHttp>; record: TestRecord } {
  const judge = createJudge('contract');
  const record = createTestRecord();
  judge.use(record);
  const http = createHttp({
    baseUrl,
    keys: { primary: 'k' },
    contract,
    strict: false,
    requestTimeoutMs: 5000,
    requestIdPrefix: prefix,
    reproDir: '/tmp',
    judge,
    ...(dispatcher ? { dispatcher } : {}),
  });
  return { http, record };
}

describe('a connection closed before any byte of the answer', () => {
  it('is sent again once for an idempotent request (a GET, a keyed upload), with a warning', async () => {
    const { http, record } = recordingHttp('reset-get');
    const before = served;
    const again = await http.send({ path: '/nowhere', headers: { 'x-close-first': '1' } });
    expect(again.status).toBe(404);
    expect(served).toBe(before + 1);
    const keyed = await http.send({ path: '/nowhere', method: 'POST', headers: { 'x-close-first': '1', 'Idempotency-Key': 'k-1' } });
    expect(keyed.status).toBe(404);
    expect(record.warnings).toEqual([
      expect.objectContaining({
        check: 'http.responds',
        message: expect.stringMatching(/closed before any byte of the answer .*sent again once/),
      }),
      expect.objectContaining({ check: 'http.responds', message: expect.stringMatching(/POST .*sent again once/) }),
    ]);
  });

  it.each([
    ["fetch's own connections", undefined],
    ["the suite's dispatcher's", createDispatcher(DIRECT)],
  ])('on a kept-alive connection is sent again without a warning (%s): the target ended an idle connection', async (_, dispatcher) => {
    const { http, record } = recordingHttp(`reset-kept-${dispatcher ? 'own' : 'fetch'}`, dispatcher);
    const closedBefore = closedKept;
    // A request that came on a new connection is answered, which keeps that one for the next.
    for (let sent = 0; sent < 5 && closedKept === closedBefore; sent++) {
      expect((await http.send({ path: '/nowhere', headers: { 'x-close-kept': '1' } })).status).toBe(404);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(closedKept).toBe(closedBefore + 1);
    expect(record.warnings).toEqual([]);
    await dispatcher?.close();
  });

  it('is not sent again for a POST without an Idempotency-Key: the request may have been acted on', async () => {
    const { http, record } = recordingHttp('reset-post');
    const failure = await http
      .send({ path: '/nowhere', method: 'POST', headers: { 'x-close-first': '1' } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConformanceFailure);
    expect((failure as ConformanceFailure).record.check).toBe('http.responds');
    expect(record.warnings).toEqual([]);
  });

  it('twice in a row fails http.responds: it is retried once, not until it works', async () => {
    const { http } = recordingHttp('reset-twice');
    const failure = await http.send({ path: '/nowhere', headers: { 'x-close-always': '1' } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConformanceFailure);
  });
});

// A server that answers an upload 413 from its headers alone and drops the connection with the body unread,
// as a stack enforcing its size limit early does. Under load, fetch can fail writing that body (EPIPE) and
// lose the answer; the suite then sends it once more this way (HttpOptions.earlyAnswer).
describe('sendWhileReading', () => {
  it('reads the answer of a target that answered and closed before the body was all sent', async () => {
    let requests = 0;
    const early = createServer((_req, res) => {
      requests++;
      res.writeHead(413, { 'content-type': 'application/problem+json', connection: 'close', 'x-request-id': 'early' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Content Too Large', status: 413, detail: 'over', code: 'file_too_large' }));
      res.on('finish', () => res.socket?.destroy());
    });
    await new Promise<void>((resolve) => early.listen(0, '127.0.0.1', resolve));
    try {
      const judge = createJudge('contract');
      judge.use(createTestRecord());
      const http = createHttp({
        baseUrl: `http://127.0.0.1:${(early.address() as AddressInfo).port}`,
        keys: { primary: 'k' },
        contract,
        strict: false,
        requestTimeoutMs: 10_000,
        requestIdPrefix: 'early',
        reproDir: '/tmp',
        judge,
      });
      const data = new Uint8Array(16 * MIB);
      const prepared = http.prepare({
        operation: 'uploadDocuments',
        body: { kind: 'files', parts: [{ field: 'files[]', filename: 'big.pdf', contentType: 'application/pdf', data }] },
      });
      const answer = await sendWhileReading(http, prepared, 10_000);
      expect('status' in answer && answer.status).toBe(413);
      expect(requests).toBe(1);
    } finally {
      await new Promise<void>((resolve) => early.close(() => resolve()));
    }
  }, 60_000);
});
