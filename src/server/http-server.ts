import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/** A listening HTTP server with a graceful close. */
export interface ListeningServer {
  server: Server;
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  /**
   * Stops accepting connections and lets requests in flight finish (their durable writes
   * included); connections still busy after `graceMs` are cut.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Listens on host:port (0 picks a free port) and resolves once listening.
 * @example const { url, close } = await listen(app, { port: 4010, host: '127.0.0.1' });
 */
export function listen(app: Express, { port, host }: { port: number; host: string }): Promise<ListeningServer> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      // A wildcard address is not something a browser can open.
      const wildcard = address.address === '0.0.0.0' || address.address === '::';
      const shownHost = wildcard ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
      let closing: Promise<void> | undefined;
      resolve({
        server,
        port: address.port,
        url: `http://${shownHost}:${address.port}`,
        close(graceMs = 10_000) {
          closing ??= new Promise<void>((done) => {
            const timer = setTimeout(() => server.closeAllConnections(), graceMs);
            timer.unref();
            server.close(() => {
              clearTimeout(timer);
              done();
            });
            server.closeIdleConnections();
          });
          return closing;
        },
      });
    });
  });
}
