import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostileTarget } from '../../proofs/hostile-targets.js';
import { createTestRecord } from '../definitions/records.js';
import { DIRECT, type TransportSettings } from '../definitions/transport-settings.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import { createJudge } from '../judging/judge.js';
import { createDispatcher } from './dispatcher.js';
import { createHttp } from './http.js';
import { IntermediaryAnswered } from './intermediary.js';
import { TargetUnavailable } from './transient.js';

const contract = await loadContract();

function recordingHttp(baseUrl: string, { transport = DIRECT, strict = false, requestTimeoutMs = 5000 } = {}) {
  const judge = createJudge('contract');
  const record = createTestRecord();
  judge.use(record);
  const dispatcher = transport === DIRECT ? undefined : createDispatcher(transport);
  const http = createHttp({
    baseUrl,
    keys: { primary: 'k' },
    contract,
    strict,
    requestTimeoutMs,
    requestIdPrefix: 'receive',
    reproDir: '/tmp',
    transport,
    ...(dispatcher ? { dispatcher } : {}),
    judge,
  });
  return { http, record, close: async () => dispatcher?.close() };
}

// A forward proxy in this process that refuses /denied itself, with Squid's page and headers, and relays
// every other request to a service that answers a problem+json 404 with the request's X-Request-Id.
describe("a forward proxy's own answer during a run", () => {
  let proxy: ReturnType<typeof createServer>;
  let transport: TransportSettings;
  beforeAll(async () => {
    proxy = createServer((req, res) => {
      if (req.url?.endsWith('/denied')) {
        res.writeHead(403, { server: 'squid/5.7', 'x-squid-error': 'ERR_ACCESS_DENIED 0', 'content-type': 'text/html' });
        return res.end('<html>Access Denied</html>');
      }
      res.writeHead(404, {
        'content-type': 'application/problem+json',
        'x-request-id': String(req.headers['x-request-id']),
        via: '1.1 gw (squid/5.7)',
      });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'none', code: 'not_found' }));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    transport = { ...DIRECT, proxy: { http: `http://ci:s3cret@127.0.0.1:${(proxy.address() as AddressInfo).port}` } };
  });
  afterAll(() => new Promise((resolve) => proxy.close(resolve)));

  it('is a warning naming the proxy, even with --strict, and never a failure of the service', async () => {
    const { http, record, close } = recordingHttp('http://service.example:8080', { transport, strict: true });
    try {
      const error = await http.send({ path: '/denied' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IntermediaryAnswered);
      const shown = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      expect(record.warnings).toEqual([
        expect.objectContaining({
          check: 'response.answered-by-service',
          message: expect.stringContaining(
            `the forward proxy ${shown} answered 403 (X-Squid-Error: ERR_ACCESS_DENIED 0, Server: squid/5.7)`,
          ),
        }),
      ]);
      expect(JSON.stringify(record)).not.toContain('s3cret');
      expect(record.failures).toEqual([]);
    } finally {
      await close();
    }
  });

  it("leaves the service's own answer, relayed with the proxy's Via, to be judged as the service's", async () => {
    const { http, record, close } = recordingHttp('http://service.example:8080', { transport, strict: true });
    try {
      expect((await http.send({ path: '/nowhere' })).status).toBe(404);
      expect(record.warnings).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('a target that never finishes an answer', () => {
  it('fails http.responds once, then stops the run as unavailable (exit 2) at the second silent request', async () => {
    const target = await startHostileTarget('drip');
    const { http } = recordingHttp(target.baseUrl, { requestTimeoutMs: 500 });
    try {
      expect(await http.send({ path: '/a' }).catch((e: unknown) => e)).toBeInstanceOf(ConformanceFailure);
      const stopped = await http.send({ path: '/b' }).catch((e: unknown) => e);
      expect(stopped).toBeInstanceOf(TargetUnavailable);
      expect((stopped as Error).message).toMatch(/^no complete answer from the target in 1 s/);
      expect(() => http.gate.check()).toThrow(TargetUnavailable);
    } finally {
      await target.close();
    }
  }, 20_000);

  it('keeps judging a target that answered once: slow is not dead', async () => {
    const target = await startHostileTarget('drip');
    const answering = createServer((req, res) => {
      res.writeHead(404, { 'content-type': 'application/problem+json', 'x-request-id': String(req.headers['x-request-id']) });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'none', code: 'not_found' }));
    });
    await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve));
    const { http } = recordingHttp(`http://127.0.0.1:${(answering.address() as AddressInfo).port}`, { requestTimeoutMs: 500 });
    try {
      await http.send({ path: '/answered' });
      // The same gate, now facing a target that stopped answering: each silent request is the service's failure.
      const silent = { ...http.prepare({ path: '/a' }), url: `${target.baseUrl}/a` };
      for (let i = 0; i < 3; i++) expect(await http.dispatch(silent).catch((e: unknown) => e)).toBeInstanceOf(ConformanceFailure);
    } finally {
      await target.close();
      await new Promise((resolve) => answering.close(resolve));
    }
  }, 20_000);
});
