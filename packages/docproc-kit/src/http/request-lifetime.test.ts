import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { endRequest, requestSignal } from './request-lifetime.js';

// A request's signal is made only when asked for, so it must tell the same whenever it is asked:
// before or after the client went away, before or after the server ended the request.
// With `hangUp`, the client goes away once the server has its request (and has not answered it).
async function serveOne(handle: (req: IncomingMessage, res: ServerResponse) => void, { hangUp }: { hangUp: boolean }) {
  let arrived!: () => void;
  const handled = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = createServer((req, res) => {
    handle(req, res);
    arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    const req = request({ port, host: '127.0.0.1', path: '/' }, (res) => res.resume().on('end', resolve));
    req.on('error', () => resolve());
    req.end();
    if (hangUp) void handled.then(() => req.destroy());
  });
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe('a request’s signal', () => {
  it.each([
    ['asked before the client went away', true],
    ['asked only after the client went away', false],
  ])('is aborted when the client went away before its answer (%s)', async (_when, askFirst) => {
    let signal: AbortSignal | undefined;
    let closed!: Promise<void>;
    let exchange!: [IncomingMessage, ServerResponse];
    await serveOne(
      (req, res) => {
        exchange = [req, res];
        if (askFirst) signal = requestSignal(req, res);
        closed = new Promise((resolve) => res.on('close', () => resolve()));
      },
      { hangUp: true },
    );
    await closed;
    signal ??= requestSignal(...exchange);
    expect(signal.aborted).toBe(true);
    expect(String(signal.reason)).toMatch(/connection closed before the answer/);
  });

  it('is never aborted for a request answered in full', async () => {
    let signal!: AbortSignal;
    await serveOne(
      (req, res) => {
        signal = requestSignal(req, res);
        res.end('ok');
      },
      { hangUp: false },
    );
    // serveOne resolves once the server has closed, so every close listener has run.
    expect(signal.aborted).toBe(false);
  });

  it.each([
    ['before it is asked for', false],
    ['after it was asked for', true],
  ])('carries the server’s reason when the server ended the request %s', async (_when, askFirst) => {
    let signal: AbortSignal | undefined;
    await serveOne(
      (req, res) => {
        if (askFirst) signal = requestSignal(req, res);
        endRequest(req, 'grace period over');
        signal ??= requestSignal(req, res);
        res.end('late');
      },
      { hangUp: false },
    );
    expect(signal!.aborted).toBe(true);
    expect(String(signal!.reason)).toMatch(/grace period over/);
  });
});
