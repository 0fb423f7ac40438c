import { Agent, request } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { type ListeningServer, listen } from './http-server.js';
import { requestSignal } from './request-lifetime.js';

// A server's shutdown on real sockets: what a request in flight, one on a connection already open,
// a new connection and a request still sending its body each get.
let http: ListeningServer | undefined;
let release: () => void = () => {};
afterEach(async () => {
  release();
  await http?.close(100);
  http = undefined;
});

/**
 * A server whose /slow answers once `release()` is called, whose /watch answers whether its signal was
 * aborted once its body arrived, and whose /hold does so when `release()` is called.
 */
async function serve() {
  const app = express();
  let waiting: Array<() => void> = [];
  release = () => {
    for (const answer of waiting) answer();
    waiting = [];
  };
  app.get('/slow', (_req, res) => void waiting.push(() => res.send('done')));
  app.post('/watch', (req, res) => {
    req.resume();
    req.on('end', () => res.send(requestSignal(req).aborted ? 'aborted' : 'live'));
  });
  app.post('/hold', (req, res) => {
    req.resume();
    req.on('end', () => void waiting.push(() => res.send(requestSignal(req).aborted ? 'aborted' : 'live')));
  });
  app.get('/', (_req, res) => void res.send('ok'));
  http = await listen(app, { port: 0, host: '127.0.0.1' });
  return http;
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string } | { error: string };

function call(path: string, { agent, method = 'GET', body }: { agent?: Agent; method?: string; body?: () => Buffer | undefined } = {}) {
  return new Promise<Answer>((resolve) => {
    const req = request({ host: '127.0.0.1', port: http!.port, path, method, agent: agent ?? false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    if (!body) return void req.end();
    req.setHeader('content-length', 1000);
    req.write(Buffer.alloc(500));
    const rest = body();
    if (rest) req.end(rest);
  });
}

describe('a shutdown', () => {
  it('lets a request in flight finish, answered with Connection: close, and closes once it is answered', async () => {
    await serve();
    const inFlight = call('/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    let closed = false;
    const closing = http!.close(5_000).then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    release();
    expect(await inFlight).toMatchObject({ status: 200, body: 'done', headers: { connection: 'close' } });
    await closing;
    http = undefined;
  });

  it('answers a request on a connection already open 503 with Retry-After and Connection: close, and refuses new connections', async () => {
    await serve();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect(await call('/', { agent })).toMatchObject({ status: 200 });
    const inFlight = call('/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = http!.close(5_000);
    const late = await call('/', { agent });
    expect(late).toMatchObject({
      status: 503,
      headers: { 'retry-after': '5', connection: 'close', 'content-type': 'application/problem+json; charset=utf-8' },
    });
    expect(JSON.parse((late as { body: string }).body)).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(await call('/')).toEqual({ error: 'ECONNREFUSED' });
    release();
    await inFlight;
    await closing;
    agent.destroy();
    http = undefined;
  });

  it('at the end of the grace period, cuts a request still sending its body and aborts the signal of one whose body arrived', async () => {
    await serve();
    const cut = call('/watch', { method: 'POST', body: () => undefined }); // half of its body, never the rest
    const arrived = call('/hold', { method: 'POST', body: () => Buffer.alloc(500) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = http!.close(200);
    expect(await cut).toMatchObject({ error: expect.stringMatching(/ECONNRESET|socket hang up/) });
    // Past the grace period, the request whose body arrived asks its signal (as an upload does
    // before storing) and is still answered.
    release();
    expect(await arrived).toMatchObject({ status: 200, body: 'aborted', headers: { connection: 'close' } });
    await closing;
    http = undefined;
  });
});
