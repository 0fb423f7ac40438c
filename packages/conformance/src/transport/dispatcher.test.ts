import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECT } from '../definitions/transport-settings.js';
import { createDispatcher, withGatewayHeaders } from './dispatcher.js';
import { fetchBounded } from './transport.js';

const limits = { timeoutMs: 5000, maxBodyBytes: 1 << 20 };

let server: ReturnType<typeof createServer>;
let baseUrl: string;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the run dispatcher', () => {
  it("puts the gateway's headers on the global fetch's requests, never over a header the request sets itself", async () => {
    const dispatcher = createDispatcher({
      ...DIRECT,
      headers: [
        ['X-Gateway-Token', 't'],
        ['Authorization', 'Bearer gateway'],
      ],
    });
    try {
      const response = await fetch(`${baseUrl}/x`, { headers: { authorization: 'ApiKey probe' }, dispatcher } as RequestInit);
      expect(await response.text()).toBe('ok');
    } finally {
      await dispatcher.close();
    }
    expect(seen.at(-1)).toMatchObject({ 'x-gateway-token': 't', authorization: 'ApiKey probe' });
  });

  it.each([
    [{ a: '1' }, { a: '1', 'x-g': 'g' }],
    [{ 'X-G': 'mine' }, { 'X-G': 'mine' }],
    [
      ['a', '1'],
      ['a', '1', 'x-g', 'g'],
    ],
    [
      ['X-G', 'mine'],
      ['X-G', 'mine'],
    ],
    [undefined, { 'x-g': 'g' }],
  ])('adds them to headers given as %j: %j', (headers, expected) => {
    expect(withGatewayHeaders(headers as never, [['x-g', 'g']])).toEqual(expected);
  });
});

// A forward proxy in this process: it records the request line and headers of each request it is sent, answers
// plain http itself (as a proxy relaying the target would), and refuses every CONNECT as Squid's default
// configuration refuses a tunnel to a port other than 443.
describe('the run dispatcher through a forward proxy', () => {
  const requests: Array<{ line: string; headers: IncomingHttpHeaders }> = [];
  let proxy: ReturnType<typeof createServer>;
  let proxyUrl: string;
  beforeAll(async () => {
    proxy = createServer((req, res) => {
      requests.push({ line: `${req.method} ${req.url}`, headers: req.headers });
      if (!req.headers['proxy-authorization']) {
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"', 'x-squid-error': 'ERR_CACHE_ACCESS_DENIED 0' });
        return res.end();
      }
      res.end('relayed');
    });
    proxy.on('connect', (req: { url?: string }, socket: Socket) => {
      requests.push({ line: `CONNECT ${req.url}`, headers: {} });
      socket.end('HTTP/1.1 403 Forbidden\r\nServer: squid/5.7\r\nX-Squid-Error: ERR_ACCESS_DENIED 0\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => proxy.close(resolve)));

  it("sends plain http in absolute form, Host the target's, the proxy URL's credentials as Proxy-Authorization", async () => {
    const dispatcher = createDispatcher({ ...DIRECT, proxy: { http: proxyUrl.replace('//', '//ci:s3cret@') } });
    try {
      const answer = await fetchBounded({ url: 'http://target.example:8080/api/v1/x?a=1', method: 'GET', headers: {}, dispatcher }, limits);
      expect('status' in answer && new TextDecoder().decode(answer.bytes)).toBe('relayed');
    } finally {
      await dispatcher.close();
    }
    expect(requests.at(-1)).toMatchObject({
      line: 'GET http://target.example:8080/api/v1/x?a=1',
      headers: { host: 'target.example:8080', 'proxy-authorization': `Basic ${Buffer.from('ci:s3cret').toString('base64')}` },
    });
  });

  it('fails a request the proxy wants credentials for with what it said (fetch alone says nothing of a 407)', async () => {
    const dispatcher = createDispatcher({ ...DIRECT, proxy: { http: proxyUrl } });
    try {
      const answer = await fetchBounded({ url: 'http://target.example:8080/x', method: 'GET', headers: {}, dispatcher }, limits);
      expect(answer).toMatchObject({
        proxyRefused:
          'answered GET http://target.example:8080/x itself, 407 (X-Squid-Error: ERR_CACHE_ACCESS_DENIED 0, Proxy-Authenticate: Basic realm="corp"); the proxy wants credentials: give them in its URL, http://user:password@host:port',
      });
    } finally {
      await dispatcher.close();
    }
  });

  it('tunnels https with CONNECT; a refused tunnel is the proxy refusing, named without its credentials', async () => {
    const dispatcher = createDispatcher({ ...DIRECT, proxy: { https: proxyUrl.replace('//', '//ci:s3cret@') } });
    try {
      const answer = await fetchBounded({ url: 'https://target.example:8443/api/v1/x', method: 'GET', headers: {}, dispatcher }, limits);
      expect(answer).toMatchObject({
        error: `the proxy ${proxyUrl} refused CONNECT target.example:8443: 403 (X-Squid-Error: ERR_ACCESS_DENIED 0, Server: squid/5.7)`,
        proxyRefused: 'refused CONNECT target.example:8443: 403 (X-Squid-Error: ERR_ACCESS_DENIED 0, Server: squid/5.7)',
      });
      expect(JSON.stringify(answer)).not.toContain('s3cret');
    } finally {
      await dispatcher.close();
    }
    expect(requests.at(-1)?.line).toBe('CONNECT target.example:8443');
  });

  it('goes straight to a host NO_PROXY names', async () => {
    const before = requests.length;
    const dispatcher = createDispatcher({ ...DIRECT, proxy: { http: proxyUrl, noProxy: '127.0.0.1' } });
    try {
      const answer = await fetchBounded({ url: `${baseUrl}/x`, method: 'GET', headers: {}, dispatcher }, limits);
      expect('status' in answer && new TextDecoder().decode(answer.bytes)).toBe('ok');
    } finally {
      await dispatcher.close();
    }
    expect(requests.length).toBe(before);
  });
});
