import { createServer, type Server, type Socket } from 'node:net';
import { loadBundledContract } from '@docproc-kit/contract/load-contract.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { sendLargeUpload } from '@docproc-kit/test-support/large-upload.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { LingerEnd, LingeringLimits } from '../http/lingering-close.js';
import { createLocalJudging } from './judging.js';
import { createProxyServer, type ProxyServer } from './proxy-server.js';

// Targets on raw sockets that give up on an upload at its first bytes: one answers and closes at once with
// the rest of the body unread (the kernel resets the connection), one closes without a word. Through the
// proxy, a client sending far more as fast as it can gets the first's answer byte for byte, the second's 502.
const KEY = 'early-key';
const PROBLEM = Buffer.from(
  JSON.stringify({ type: 'about:blank', title: 'Content Too Large', status: 413, code: 'file_too_large', request_id: 'target-413' }),
);
const ANSWER = Buffer.concat([
  Buffer.from(
    'HTTP/1.1 413 Payload Too Large\r\nX-Request-Id: target-413\r\nContent-Type: application/problem+json; charset=utf-8\r\n' +
      `Content-Length: ${PROBLEM.length}\r\nConnection: close\r\n\r\n`,
  ),
  PROBLEM,
]);

const servers: Server[] = [];
const proxies: ProxyServer[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A target that, once a request's headers are in, does `onHeaders` with its socket and reads no more. */
async function target(onHeaders: (socket: Socket) => void): Promise<string> {
  const server = createServer((socket) => {
    let head = '';
    const read = (data: Buffer) => {
      head += data.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', read);
      socket.pause();
      onHeaders(socket);
    };
    socket.on('data', read);
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

async function proxyTo(base: string, ends: LingerEnd[], lingering: Partial<LingeringLimits> = {}): Promise<ProxyServer> {
  const settings = { target: base, spec: bundledSpecPath, strict: false, bodyCap: 1024 * 1024, keep: 100 };
  const proxy = createProxyServer({
    target: base,
    judging: createLocalJudging(settings, await loadBundledContract()),
    bodyCap: settings.bodyCap,
    lingering,
    onLingerEnd: (end) => ends.push(end),
  });
  proxies.push(proxy);
  await proxy.listen(0, '127.0.0.1');
  return proxy;
}

const UPLOADS = 10;
const FILE_BYTES = 32 * 1024 * 1024;

describe('the proxy in front of a target that gives up on an upload early', () => {
  it(`relays the answer of a target that answers and closes under the body, byte for byte, ${UPLOADS} times of ${UPLOADS}, and reads the client's rest until it ends or the client closes`, async () => {
    // Ended once its answer is handed to the kernel, with the body's bytes unread: the connection is reset.
    const base = await target((socket) => socket.end(ANSWER, () => socket.destroy()));
    const ends: LingerEnd[] = [];
    const proxy = await proxyTo(base, ends);
    const url = `http://127.0.0.1:${(proxy.server.address() as { port: number }).port}`;
    for (let i = 0; i < UPLOADS; i++) {
      const got = await sendLargeUpload(url, { fileBytes: FILE_BYTES, apiKey: KEY });
      expect('error' in got ? got.error : got.status).toBe(413);
      if ('error' in got) continue;
      expect(got.body.equals(PROBLEM)).toBe(true);
      expect(got.headers).toMatchObject({ 'x-request-id': 'target-413', 'content-type': 'application/problem+json; charset=utf-8' });
    }
    await proxy.settled();
    // The client stops sending once it has read the answer (Node's client closes then), or its body ends first.
    await expect.poll(() => ends.length, { timeout: 20_000 }).toBe(UPLOADS);
    expect(ends.filter((end) => end !== 'body-ended' && end !== 'client-closed')).toEqual([]);
    const summary = await proxy.judging.summary();
    expect(summary.exchanges).toMatchObject({ total: UPLOADS, judged: UPLOADS });
  }, 120_000);

  it('answers 502 itself, naming the reason, when the target stops reading the body and closes without an answer', async () => {
    const base = await target((socket) => socket.destroy());
    const ends: LingerEnd[] = [];
    const proxy = await proxyTo(base, ends);
    const url = `http://127.0.0.1:${(proxy.server.address() as { port: number }).port}`;
    const got = await sendLargeUpload(url, { fileBytes: FILE_BYTES, apiKey: KEY });
    expect('error' in got ? got.error : got.status).toBe(502);
    if ('error' in got) return;
    expect(got.body.toString()).toMatch(
      /^docproc proxy: the target http:\/\/127\.0\.0\.1:\d+ stopped reading the request's body \(.+\) and closed without an answer/,
    );
    await expect.poll(() => ends.length, { timeout: 20_000 }).toBe(1);
    expect(ends.filter((end) => end !== 'body-ended' && end !== 'client-closed')).toEqual([]);
  }, 60_000);

  it("closes a client that sends on past the lingering bound, after it got the target's answer", async () => {
    const base = await target((socket) => socket.end(ANSWER, () => socket.destroy()));
    const ends: LingerEnd[] = [];
    const proxy = await proxyTo(base, ends, { maxBytes: 1024 * 1024 });
    const url = `http://127.0.0.1:${(proxy.server.address() as { port: number }).port}`;
    const got = await sendLargeUpload(url, { fileBytes: 8 * FILE_BYTES, apiKey: KEY });
    expect('error' in got ? got.error : got.body.toString()).toBe(PROBLEM.toString());
    await expect.poll(() => ends, { timeout: 20_000 }).toEqual(['bytes']);
  }, 60_000);
});
