import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { type RunningReferenceServer, startReferenceServer, until } from '@docproc-kit/test-support/reference-server.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Requests a careless or hostile client sends, against the real server on loopback.
const lines: string[] = [];
let server: RunningReferenceServer;
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  server = await startReferenceServer({ logger: pino({ level: 'info' }, sink) });
});
afterAll(() => server?.close());

/** Sends raw HTTP and resolves with everything the server answered before closing. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(request);
    // Some answers keep the connection open; give them time, then close our side.
    setTimeout(() => socket.end(), 1_000);
  });
}

describe('an Expect header other than 100-continue', () => {
  it.each(['200-ok', 'something-else'])('Expect: %s is a 417 problem with an X-Request-Id', async (expectation) => {
    const answer = await raw(
      `GET /api/v1/documents/get_documents HTTP/1.1\r\nHost: x\r\nExpect: ${expectation}\r\nX-Request-Id: expect-${expectation}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 417 /);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    expect(answer).toMatch(new RegExp(`x-request-id: expect-${expectation}`, 'i'));
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 417,
      code: 'invalid_request',
      request_id: `expect-${expectation}`,
    });
  });
});

describe('an API key sent in the query string', () => {
  it.each([
    ['x-api-key', 'x-api-key=leaked-secret-1'],
    ['api_key', 'api_key=leaked-secret-2'],
    ['apiKey, percent-encoded name', 'api%4Bey=leaked-secret-3'],
    ['token', 'token=leaked-secret-4'],
  ])('(%s) is redacted from the request log, other parameters are kept', async (_what, param) => {
    const res = await fetch(`${server.baseUrl}/api/v1/documents/get_documents?page=1&${param}`, {
      headers: { 'x-api-key': server.apiKeys[0]! },
    });
    expect(res.status).toBe(200);
    const secret = param.split('=')[1]!;
    const line = () => lines.find((l) => l.includes(`${param.split('=')[0]}=[REDACTED]`));
    expect(await until(() => line() !== undefined, 5_000)).toBe(true);
    expect(line()).toContain('page=1');
    expect(lines.join('\n')).not.toContain(secret);
  });
});
