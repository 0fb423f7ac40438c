import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECT } from '../definitions/transport-settings.js';
import { createDispatcher, withGatewayHeaders } from './dispatcher.js';

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
