import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../test/support/reference-server.js';
import { type ListeningServer, listen } from './http-server.js';

// The connection caps on real sockets: clients from two loopback addresses (all of 127.0.0.0/8 is
// loopback on Linux), idle, half-way through their headers, or waiting on an answer.
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
async function serve(maxConnections: number, maxConnectionsPerAddress: number) {
  const waiting: Array<() => void> = [];
  release = () => {
    for (const answer of waiting.splice(0)) answer();
  };
  const app = express();
  app.get('/slow', (_req, res) => void waiting.push(() => res.send('late')));
  app.get('/', (_req, res) => void res.send('ok'));
  http = await listen(app, { port: 0, host: '127.0.0.1', maxConnections, maxConnectionsPerAddress });
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
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: http!.port, path, localAddress: from, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
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
    const fourth = await open('127.0.0.1');
    expect(await until(() => first.closed, 2_000)).toBe(true);
    await settle();
    expect([elsewhere.closed, second.closed, third.closed, fourth.closed]).toEqual([false, false, false, false]);
    expect(await get('127.0.0.2')).toBe(200);
  });

  it('past its cap with every connection waiting on an answer, a new connection from that address is closed, not one of them', async () => {
    await serve(100, 2);
    const answers = [get('127.0.0.1', '/slow'), get('127.0.0.1', '/slow')];
    await settle();
    expect(await get('127.0.0.1')).toMatch(/ECONNRESET|socket hang up/);
    expect(await get('127.0.0.2')).toBe(200);
    release!();
    expect(await Promise.all(answers)).toEqual([200, 200]);
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
    expect(await get('127.0.0.3')).toBe(200);
    expect(hog[0]!.closed).toBe(true);
    expect(other.filter((s) => s.closed)).toEqual([]);
  });

  it('when full of connections all waiting on an answer, a new one is closed', async () => {
    await serve(2, 0);
    const answers = [get('127.0.0.1', '/slow'), get('127.0.0.2', '/slow')];
    await settle();
    expect(await get('127.0.0.3')).toMatch(/ECONNRESET|socket hang up/);
    release!();
    expect(await Promise.all(answers)).toEqual([200, 200]);
  });
});
