import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRecord } from '../definitions/records.js';
import { DIRECT, type TransportSettings } from '../definitions/transport-settings.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import { createJudge } from '../judging/judge.js';
import { createDispatcher } from './dispatcher.js';
import { createHttp, type Http } from './http.js';
import { sendWhileReading } from './race/release.js';

const contract = await loadContract();

// A server that resets the connection of the first request it is sent with nothing answered, as a proxy
// does that relays a target's answer given from the headers alone and drops the body still arriving
// (the reset can lose that answer); every later request gets the target's 401.
let requests = 0;
const server = createServer((req, res) => {
  req.resume();
  if (++requests === 1) return req.socket.resetAndDestroy();
  res.writeHead(401, { 'content-type': 'application/problem+json', 'x-request-id': String(req.headers['x-request-id']) });
  res.end(JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'unknown key', code: 'unauthorized' }));
});
let address: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function upload(baseUrl: string, transport: TransportSettings) {
  const judge = createJudge('contract');
  judge.use(createTestRecord());
  const dispatcher = transport === DIRECT ? undefined : createDispatcher(transport);
  const http: Http = createHttp({
    baseUrl,
    keys: { primary: 'k' },
    contract,
    strict: false,
    requestTimeoutMs: 5000,
    requestIdPrefix: 'send-loop',
    reproDir: '/tmp',
    transport,
    ...(dispatcher ? { dispatcher } : {}),
    earlyAnswer: (prepared) => sendWhileReading(http, prepared, 5000),
    judge,
  });
  const data = new Uint8Array(64 * 1024);
  const sent = http
    .send({
      operation: 'uploadDocuments',
      key: { literal: 'unknown' },
      body: { kind: 'files', parts: [{ field: 'files[]', filename: 'a.pdf', contentType: 'application/pdf', data }] },
    })
    .catch((error: unknown) => error);
  return sent.finally(() => dispatcher?.close());
}

describe('an upload whose connection a forward proxy reset before any byte of the answer', () => {
  it('is sent once more on a socket that reads while it writes, and its answer judged', async () => {
    requests = 0;
    const exchange = await upload('http://service.example:8080', { ...DIRECT, proxy: { http: address } });
    expect((exchange as { status?: number }).status).toBe(401);
    expect(requests).toBe(2);
  });

  it('straight to the target, is the target resetting it: http.responds fails, nothing is sent again', async () => {
    requests = 0;
    const failure = await upload(address, DIRECT);
    expect(failure).toBeInstanceOf(ConformanceFailure);
    expect((failure as ConformanceFailure).record.check).toBe('http.responds');
    expect(requests).toBe(1);
  });
});
