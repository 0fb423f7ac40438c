import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer, type Server, type Socket } from 'node:net';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRecord, type TestRecord } from '../definitions/records.js';
import { DIRECT } from '../definitions/transport-settings.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import { createJudge } from '../judging/judge.js';
import { createDispatcher } from './dispatcher.js';
import { createHttp, type Http } from './http.js';
import { sendWhileReading } from './race/release.js';

const contract = await loadContract();

// The target: every upload gets the contract's 413, or (`resets`) has its connection reset once read.
let resets = false;
let uploadsSeen = 0;
const target = createHttpServer((req, res) => {
  req.resume();
  req.on('end', () => {
    uploadsSeen++;
    if (resets) return req.socket.resetAndDestroy();
    res.writeHead(413, { 'content-type': 'application/problem+json', 'x-request-id': String(req.headers['x-request-id']) });
    res.end(
      JSON.stringify({
        type: 'about:blank',
        title: 'Payload Too Large',
        status: 413,
        detail: 'a file is over 8 bytes',
        code: 'file_too_large',
      }),
    );
  });
});

// A forward proxy relaying every connection to the target, whatever host the request names; while
// `dropping` is above 0, it throws away what the target answers and resets its client instead.
let dropping = 0;
const proxy = createNetServer((client: Socket) => {
  const upstream = connect((target.address() as AddressInfo).port, '127.0.0.1');
  const drop = dropping-- > 0;
  client.pipe(upstream);
  upstream.on('data', (chunk: Buffer) => (drop ? client.resetAndDestroy() : client.write(chunk)));
  upstream.on('end', () => client.end());
  upstream.on('error', () => client.resetAndDestroy());
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
});

// A port nothing listens on: the target as seen from a network where only the proxy gets out.
const closed = createNetServer();
const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
let closedOrigin: string;

beforeAll(async () => {
  for (const server of [target, proxy, closed]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedOrigin = origin(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
afterAll(async () => {
  for (const server of [target, proxy]) await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Uploads a file through the proxy to `baseUrl`: the exchange (or the failure) and the test's record. */
async function uploadThroughProxy(baseUrl: string): Promise<{ outcome: unknown; record: TestRecord }> {
  const judge = createJudge('contract');
  const record = createTestRecord();
  judge.use(record);
  const transport = { ...DIRECT, proxy: { http: origin(proxy) } };
  const dispatcher = createDispatcher(transport);
  const http: Http = createHttp({
    baseUrl,
    keys: { primary: 'k' },
    contract,
    strict: false,
    requestTimeoutMs: 5000,
    requestIdPrefix: 'lost-answer',
    reproDir: '/tmp',
    transport,
    dispatcher,
    earlyAnswer: (prepared, other) => sendWhileReading(other ? { ...http, transport: other } : http, prepared, 5000),
    judge,
  });
  const data = new Uint8Array(16 * 1024);
  try {
    const outcome = await http
      .send({
        operation: 'uploadDocuments',
        body: { kind: 'files', parts: [{ field: 'files[]', filename: 'a.pdf', contentType: 'application/pdf', data }] },
      })
      .catch((error: unknown) => error);
    return { outcome, record };
  } finally {
    await dispatcher.close();
  }
}

const status = (outcome: unknown) => (outcome as { status?: number }).status;
const warnings = (record: TestRecord) => record.warnings.filter((w) => w.check === 'http.responds').map((w) => w.message);

describe('an upload whose answer a forward proxy loses (reset after the whole request went through it)', () => {
  it("is sent directly: the target's 413 is judged, and a warning names the proxy as the hop that lost it", async () => {
    [resets, dropping, uploadsSeen] = [false, 2, 0];
    const { outcome, record } = await uploadThroughProxy(origin(target));
    expect(status(outcome)).toBe(413);
    expect(warnings(record)).toEqual([
      expect.stringMatching(
        new RegExp(`: the proxy ${origin(proxy)} lost the target's 413 \\(.+\\): sent directly, without the proxy, it arrived\\.`),
      ),
    ]);
    // Through the proxy by fetch, on a reading socket, then directly.
    expect(uploadsSeen).toBe(3);
  });

  it('is sent through the proxy again when the target cannot be reached without it, and says the hop could not be told', async () => {
    [resets, dropping, uploadsSeen] = [false, 2, 0];
    const { outcome, record } = await uploadThroughProxy(closedOrigin);
    expect(status(outcome)).toBe(413);
    expect(warnings(record)).toEqual([
      expect.stringMatching(
        /sent again through it, the target's 413 arrived \(the target cannot be reached without the proxy to tell which hop lost it: ECONNREFUSED\)$/,
      ),
    ]);
  });

  it.each([
    [
      'a target that resets every such upload, even sent directly',
      () => origin(target),
      true,
      0,
      /sent directly too, without the proxy .+, it got no answer either \(.+\): the target itself drops the answer$/,
    ],
    [
      'a proxy that loses every answer, the target out of reach without it',
      () => closedOrigin,
      false,
      9,
      /sent again through the proxy .+ \(the target cannot be reached without it: ECONNREFUSED\), it got no answer either \(.+\)$/,
    ],
  ])('from %s, is a failure of http.responds whose note says what the other way got', async (_, baseUrl, reset, drops, note) => {
    [resets, dropping, uploadsSeen] = [reset, drops, 0];
    const { outcome, record } = await uploadThroughProxy(baseUrl());
    expect(outcome).toBeInstanceOf(ConformanceFailure);
    const failure = (outcome as ConformanceFailure).record;
    expect(failure.check).toBe('http.responds');
    expect(failure.note).toMatch(note);
    expect(warnings(record)).toEqual([]);
  });
});
