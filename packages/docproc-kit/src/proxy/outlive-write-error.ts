import type { Socket } from 'node:net';

type WriteCallback = (error?: Error | null) => void;
type Chunks = Array<{ chunk: unknown; encoding: BufferEncoding }>;

/**
 * Keeps a connection to the target readable after a write to it failed. A target that refuses an upload
 * early answers, closes, and resets the connection under the body still arriving; its answer is then already
 * in this side's receive buffer, but Node destroys a socket at its first failed write, and the answer is lost
 * with it. Here the first failed write is reported to `onWriteError` instead, every later write is dropped,
 * and the socket goes on being read, so its answer (or its end without one) still arrives.
 * @example upstream.on('socket', (socket) => outliveWriteError(socket, (error) => stopSending(error)));
 */
export function outliveWriteError(socket: Socket, onWriteError: (error: Error) => void): void {
  let failed = false;
  const absorb =
    (done: WriteCallback): WriteCallback =>
    (error) => {
      if (!error) return done();
      if (!failed) {
        failed = true;
        onWriteError(error);
      }
      done();
    };
  const write = socket._write.bind(socket);
  const writev = socket._writev?.bind(socket);
  socket._write = (chunk: unknown, encoding: BufferEncoding, done: WriteCallback) =>
    failed ? done() : write(chunk, encoding, absorb(done));
  if (writev) socket._writev = (chunks: Chunks, done: WriteCallback) => (failed ? done() : writev(chunks, absorb(done)));
}
