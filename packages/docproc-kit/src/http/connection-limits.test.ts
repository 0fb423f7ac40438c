import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { until } from '@docproc-kit/test-support/reference-server.js';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { type ListeningServer, listen } from './http-server.js';

// The connection caps on real sockets: clients from two loopback addresses (all of 127.0.0.0/8 is
// loopback on Linux), idle, half-way through their headers, or waiting on an answer. The idle grace is
// 100 ms here (1 s by default), so connections count as idle after `settle()`.
let http: ListeningServer | undefined;
let release: (() => void) | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  release?.();
  for (const s of sockets.splice(0)) s.destroy();
  await http?.close(100);
  http = undefined;
});

/** A server whose /slow answers only when `release()` is called. */
async function serve(maxConnections: number, maxConnectionsPerAddress: number, { maxOverLimit = 10, idleGraceMs = 100 } = {}) {
  const waiting: Array<() => void> = [];
  release = () => {
    for (const answer of waiting.splice(0)) answer();
  };
  const app = express();
  app.get('/slow', (_req, res) => void waiting.push(() => res.send('late')));
  app.get('/', (_req, res) => void res.send('ok'));
  http = await listen(app, { port: 0, host: '127.0.0.1', maxConnections, maxConnectionsPerAddress, maxOverLimit, idleGraceMs });
  return http;
}

/** Opens a connection from `from`; resolves once it is open. `send` is written at once (e.g. half a header). */
function open(from: string, send = ''): Promise<{ closed: boolean }> {
  return new Promise((resolve) => {
    const state = { closed: false };
    const socket = connect({ port: http!.port, host: '127.0.0.1', localAddress: from }, () => {
      if (send) socket.write(send);
      resolve(state);
    });
    socket.on('close', () => (state.closed = true));
    socket.on('error', () => {});
    sockets.push(socket);
  });
}

/** A GET / from `from` on a new connection: its status, or the error. */
function get(from: string, path = '/'): Promise<number | string> {
  return answer(from, path).then((a) => (typeof a === 'string' ? a : a.status));
}

/** A GET from `from` on a new connection: its status, headers and body, or the error. */
function answer(from: string, path = '/'): Promise<{ status: number; headers: Record<string, unknown>; body: string } | string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: http!.port, path, localAddress: from, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.setTimeout(2_000, () => req.destroy(new Error('timeout')));
    req.end();
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('connections per client address', () => {
  it("past its cap, an address's new connection closes its oldest idle one; other addresses are served", async () => {
    await serve(100, 3);
    // Older than all of them, from another address: the cap of 127.0.0.1 must not take it.
    const elsewhere = await open('127.0.0.2');
    const first = await open('127.0.0.1');
    const second = await open('127.0.0.1', 'GET / HTTP/1.1\r\nHo'); // half a header
    const third = await open('127.0.0.1');
    await settle();
    const fourth = await open('127.0.0.1');
    expect(await until(() => first.closed, 2_000)).toBe(true);
    await settle();
    expect([elsewhere.closed, second.closed, third.closed, fourth.closed]).toEqual([false, false, false, false]);
    expect(await get('127.0.0.2')).toBe(200);
  });

  it('past its cap with every connection waiting on an answer, a request on a new connection from that address is answered 503 with Retry-After, and none of them is closed', async () => {
    await serve(100, 2);
    const answers = [get('127.0.0.1', '/slow'), get('127.0.0.1', '/slow')];
    await settle();
    const refused = await answer('127.0.0.1');
    expect(refused).toMatchObject({
      status: 503,
      headers: {
        'content-type': 'application/problem+json; charset=utf-8',
        'retry-after': '1',
        connection: 'close',
        'x-request-id': expect.any(String),
      },
    });
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(await get('127.0.0.2')).toBe(200);
    release!();
    expect(await Promise.all(answers)).toEqual([200, 200]);
    expect(http!.connections()).toMatchObject({ unavailable: 1, refused: 0 });
  });

  it('a keep-alive connection between requests is not closed for a new one (its client may be sending on it): the new request is answered 503', async () => {
    await serve(100, 1);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const viaAgent = () =>
        new Promise<number>((resolve, reject) => {
          request({ host: '127.0.0.1', port: http!.port, path: '/', agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          })
            .on('error', reject)
            .end();
        });
      expect(await viaAgent()).toBe(200);
      await settle();
      expect(await get('127.0.0.1')).toBe(503);
      expect(await viaAgent()).toBe(200);
      expect(http!.connections()).toMatchObject({ evicted: 0, unavailable: 1 });
    } finally {
      agent.destroy();
    }
  });

  it('a connection that has just opened is not closed for a newer one: the newer one waits beyond the cap, and is served if room is free when its request comes', async () => {
    await serve(100, 1, { idleGraceMs: 60_000 });
    const young = await open('127.0.0.1');
    const newer = await open('127.0.0.1');
    await settle();
    expect([young.closed, newer.closed]).toEqual([false, false]);
    expect(http!.connections()).toMatchObject({ open: 1, overLimit: 1 });
    sockets[0]!.destroy();
    await until(() => young.closed, 2_000);
    const reply = new Promise<string>((resolve) => {
      let text = '';
      sockets[1]!.on('data', (chunk: Buffer) => (text += chunk.toString()));
      sockets[1]!.on('close', () => resolve(text));
    });
    sockets[1]!.end('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await reply).toMatch(/^HTTP\/1\.1 200/);
    expect(http!.connections()).toMatchObject({ evicted: 0, refused: 0, unavailable: 0 });
  });

  it('beyond the cap, at most maxOverLimit connections wait for their request; further ones are closed at once', async () => {
    await serve(100, 1, { maxOverLimit: 2, idleGraceMs: 60_000 });
    const held = await open('127.0.0.1');
    const waiting = [await open('127.0.0.1'), await open('127.0.0.1')];
    const shed = await open('127.0.0.1');
    expect(await until(() => shed.closed, 2_000)).toBe(true);
    await settle();
    expect([held.closed, ...waiting.map((w) => w.closed)]).toEqual([false, false, false]);
    expect(http!.connections()).toMatchObject({ open: 1, overLimit: 2, refused: 1 });
    expect(await get('127.0.0.2')).toBe(200);
  });

  it("the room beyond the cap is shared: when one address fills it, another's new connection takes the place of its oldest waiting one", async () => {
    await serve(100, 1, { maxOverLimit: 2, idleGraceMs: 60_000 });
    await open('127.0.0.1');
    const flood = [await open('127.0.0.1'), await open('127.0.0.1')];
    await open('127.0.0.2');
    await settle();
    expect(http!.connections()).toMatchObject({ open: 2, overLimit: 2 });
    // 127.0.0.2's own connection is young, so its request is a 503: but an answer, not a reset.
    expect(await get('127.0.0.2')).toBe(503);
    expect(flood.map((s) => s.closed)).toEqual([true, false]);
    expect(http!.connections()).toMatchObject({ refused: 0, unavailable: 1 });
  });

  it('with the cap off (0, as behind a proxy), one address may hold every connection the server takes', async () => {
    await serve(100, 0);
    const held = await Promise.all(Array.from({ length: 20 }, () => open('127.0.0.1')));
    await settle();
    expect(held.filter((s) => s.closed)).toEqual([]);
    expect(await get('127.0.0.1')).toBe(200);
  });
});

describe('the total cap', () => {
  it('when full, a new connection closes the oldest idle one of the address holding the most', async () => {
    await serve(6, 0);
    // The other address's connections are the oldest: closing the oldest idle one anywhere would take one of them.
    const other = await Promise.all(Array.from({ length: 2 }, () => open('127.0.0.2')));
    await settle();
    const hog = await Promise.all(Array.from({ length: 4 }, () => open('127.0.0.1')));
    await settle();
    expect(await get('127.0.0.3')).toBe(200);
    expect(hog[0]!.closed).toBe(true);
    expect(other.filter((s) => s.closed)).toEqual([]);
  });

  it('when full of connections all waiting on an answer, a request on a new one is answered 503', async () => {
    await serve(2, 0);
    const answers = [get('127.0.0.1', '/slow'), get('127.0.0.2', '/slow')];
    await settle();
    expect(await get('127.0.0.3')).toBe(503);
    release!();
    expect(await Promise.all(answers)).toEqual([200, 200]);
  });
});
