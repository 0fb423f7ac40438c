import { type IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/**
 * How long, and how much, a connection keeps being read after an answer sent before its request's body
 * arrived (nginx's `lingering_time`, `lingering_timeout`, and a cap on the bytes). Closing such a
 * connection at once, with the client's bytes still arriving, makes the kernel reset it, and a client
 * or proxy that has not yet read the answer loses it; reading and dropping the rest first lets it arrive.
 */
export interface LingeringLimits {
  /** The most a connection lingers in all (default 30 s, nginx's `lingering_time`). */
  timeMs: number;
  /** The longest wait for the client's next bytes (default 5 s, nginx's `lingering_timeout`): a client that stopped sending is closed then. */
  timeoutMs: number;
  /** The most bytes read and dropped (default 64 MiB): a client that sends forever is closed then. */
  maxBytes: number;
}

/** The limits `docproc serve` and `docproc proxy` use unless told otherwise. */
export const DEFAULT_LINGERING: LingeringLimits = { timeMs: 30_000, timeoutMs: 5_000, maxBytes: 64 * 1024 * 1024 };

/** How each lingering connection ended, for the tests and the log. */
export type LingerEnd = 'body-ended' | 'client-closed' | 'timeout' | 'time' | 'bytes';

/** A body is announced by Content-Length (not 0) or Transfer-Encoding (RFC 9112 §6.3). */
function hasUnreadBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads and drops what the client still sends, after the answer was flushed, until the body ends, the
 * client closes, or a limit is reached; then closes. Chunks are dropped as they arrive: nothing is kept.
 * The write side stays open until then: a TCP proxy (nginx's stream module, without
 * `proxy_half_close`) ends the client's connection as soon as the server shuts its side, under the rest
 * of the body, and the client, reset, loses the answer it was sent (test/deployed/early-answer-stream.test.ts).
 */
function linger(req: IncomingMessage, socket: Socket, limits: LingeringLimits, onEnd?: OnLingerEnd): void {
  let dropped = 0;
  let ended = false;
  const close = (end: LingerEnd) => {
    if (ended) return;
    ended = true;
    clearTimeout(total);
    clearTimeout(idle);
    // Shut, then closed once what is written has left: net.Socket's own destroySoon (this socket's was
    // replaced by linger, in writeHead below).
    (Socket.prototype as Socket & { destroySoon(): void }).destroySoon.call(socket);
    onEnd?.(end, dropped);
  };
  const total = setTimeout(() => close('time'), limits.timeMs).unref();
  const idle = setTimeout(() => close('timeout'), limits.timeoutMs).unref();
  socket.once('close', () => close('client-closed'));
  // The body arrived whole while the answer was being written: nothing is left to read.
  if (req.complete) {
    close('body-ended');
    return;
  }
  // Whoever read the body before (the upload's parser) is gone: the request's own stream is read from here
  // on, and Node's parser keeps framing it, so no byte after the body's end is taken for a new request.
  req.unpipe();
  req.removeAllListeners('data').removeAllListeners('readable');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limits.maxBytes) close('bytes');
    else idle.refresh();
  });
  req.once('end', () => close('body-ended'));
  req.resume();
  // A 'readable' listener just removed keeps the stream paused until the next tick.
  process.nextTick(() => req.resume());
}

/** Told how each lingering connection ended and how many bytes it dropped (the tests; the metrics could be). */
export type OnLingerEnd = (end: LingerEnd, droppedBytes: number) => void;

/**
 * Node's response class, lingering when it answers early: if its headers are written while the request's
 * body is still arriving (an upload refused at its first bytes, a missing key, a file past the limit),
 * the answer says `Connection: close` and, once Node has flushed it, the connection lingers within
 * `limits` instead of closing under the client's bytes. Every other answer is Node's own.
 * @example const server = createServer({ ServerResponse: lingeringResponse(DEFAULT_LINGERING) });
 */
export function lingeringResponse(limits: LingeringLimits, onEnd?: OnLingerEnd): typeof ServerResponse<IncomingMessage> {
  return class LingeringResponse extends ServerResponse<IncomingMessage> {
    override writeHead(...args: unknown[]): this {
      const { req, socket } = this;
      if (socket && !this.headersSent && hasUnreadBody(req)) {
        this.setHeader('Connection', 'close');
        // Node ends a `Connection: close` answer's connection with destroySoon() once the answer is
        // handed to the kernel; closing it then would reset it under the client's bytes.
        (socket as Socket & { destroySoon(): void }).destroySoon = () => linger(req, socket, limits, onEnd);
      }
      return ServerResponse.prototype.writeHead.apply(this, args as Parameters<ServerResponse['writeHead']>) as this;
    }
  };
}
