import { connect } from 'node:net';

/**
 * Whether something accepts TCP connections on this loopback port now (a proxy the test started, say).
 * @example await until(async () => child.exitCode !== null || (await portAccepts(port)), 15_000, 50);
 */
export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
