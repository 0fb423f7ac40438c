import { type ClientRequest, Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { endToEnd } from './hop-by-hop.js';
import { outliveWriteError } from './outlive-write-error.js';

/** What the forwarder reports of one exchange as its bytes pass, for the judge to copy what it keeps. */
export interface ForwardTaps {
  requestChunk(chunk: Buffer): void;
  /** The target's status line and headers, as received (hop-by-hop ones included). */
  response(status: number, rawHeaders: string[]): void;
  responseChunk(chunk: Buffer): void;
  /** The exchange ended: `complete` when the whole answer reached the client, else why not. */
  done(outcome: { complete: true } | { complete: false; reason: string; answeredByProxy: boolean }): void;
}

/** Forwards one request to the target and its answer back, byte for byte, as they stream. */
export type Forward = (req: IncomingMessage, res: ServerResponse, taps: ForwardTaps) => void;

/** Options of {@link createForwarder}. */
export interface ForwarderOptions {
  /** The target's base URL: `https://staging.example.com` or with a base path (`http://127.0.0.1:8080/svc`). */
  target: URL;
  /** Verify the target's TLS certificate (default true; Node's CAs plus NODE_EXTRA_CA_CERTS). */
  verifyTls?: boolean;
  /** CA certificates (PEM) to trust for the target besides Node's own (a private CA of a staging deployment). */
  ca?: string;
  /**
   * After the target stopped taking the request's body (a write to it failed), how long its answer is waited
   * for before the proxy answers 502 itself (default 2 s): a target that refuses an upload early has sent it already.
   */
  answerGraceMs?: number;
}

// Host is the target's, as a reverse proxy sets it (nginx's default `proxy_set_header Host $proxy_host`).
const DROP_FROM_REQUEST = new Set(['host']);

/**
 * A reverse-proxy forwarder: the request line's path is appended to the target's base path, `Host` is the
 * target's (TLS with its name as SNI), only hop-by-hop headers are dropped, and bodies are piped both ways
 * with backpressure, so no body is ever held whole. A target that answers before it has read the whole body (an
 * upload refused early) and resets the connection still has its answer relayed; a target that cannot be reached,
 * or that stops reading a body without answering, is a 502 from the proxy.
 * @example const forward = createForwarder({ target: new URL('http://127.0.0.1:8080') }); forward(req, res, taps);
 */
export function createForwarder({ target, verifyTls = true, ca, answerGraceMs = 2_000 }: ForwarderOptions): {
  forward: Forward;
  close(): void;
} {
  const secure = target.protocol === 'https:';
  // A private CA is trusted beside the public ones, never instead of them.
  const trusted = ca ? [...rootCertificates, ca] : undefined;
  const tls = { rejectUnauthorized: verifyTls, servername: target.hostname, ...(trusted ? { ca: trusted } : {}) };
  const agent = secure ? new HttpsAgent({ keepAlive: true, ...tls }) : new HttpAgent({ keepAlive: true });
  const fresh = secure ? new HttpsAgent({ keepAlive: false, ...tls }) : new HttpAgent({ keepAlive: false });
  const basePath = target.pathname.replace(/\/+$/, '');
  const send = secure ? httpsRequest : httpRequest;
  const forward: Forward = (req, res, taps) => {
    let settled = false;
    const settle = (outcome: Parameters<ForwardTaps['done']>[0]) => {
      if (settled) return;
      settled = true;
      taps.done(outcome);
    };
    // HTTP/1.1 framing: a request without Content-Length or Transfer-Encoding has no body.
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    let upstream: ClientRequest;
    let answered = false;
    let stoppedBy: Error | undefined;
    let grace: NodeJS.Timeout | undefined;
    const badGateway = (detail: string) => {
      res.writeHead(502, {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': Buffer.byteLength(detail),
        connection: 'close',
      });
      res.end(detail);
      settle({ complete: false, reason: detail, answeredByProxy: true });
    };
    // The target stopped taking the body: nothing more is sent to it, the client's rest is read and dropped,
    // and the target's answer, already on its way when it refuses early, is waited for a little while.
    const stopSending = (error: Error) => {
      stoppedBy = error;
      req.unpipe(upstream);
      req.resume();
      grace = setTimeout(() => {
        if (answered || res.headersSent) return;
        badGateway(
          `docproc proxy: the target ${target.origin} stopped reading the request's body (${error.message}) and sent no answer within ${answerGraceMs} ms`,
        );
        upstream.destroy();
      }, answerGraceMs).unref();
    };
    const attempt = (resent: boolean) => {
      upstream = send({
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port || (secure ? 443 : 80),
        method: req.method,
        path: `${basePath}${req.url ?? '/'}`,
        headers: [...endToEnd(req.rawHeaders, DROP_FROM_REQUEST), 'Host', target.host] as unknown as Record<string, string>,
        // A body streams once and cannot be sent again: it gets a connection of its own, never a kept-alive
        // one the target may be closing at that very moment.
        agent: hasBody ? fresh : agent,
        setHost: false,
      });
      if (hasBody) upstream.once('socket', (socket) => outliveWriteError(socket, stopSending));
      upstream.on('response', (answer) => {
        answered = true;
        clearTimeout(grace);
        const status = answer.statusCode ?? 502;
        taps.response(status, answer.rawHeaders);
        res.writeHead(status, answer.statusMessage, endToEnd(answer.rawHeaders) as unknown as Record<string, string>);
        answer.on('data', (chunk: Buffer) => taps.responseChunk(chunk));
        answer.pipe(res);
        answer.on('error', (error) => {
          res.destroy(error);
          settle({ complete: false, reason: `the target's answer broke off: ${error.message}`, answeredByProxy: false });
        });
        res.on('finish', () => settle({ complete: true }));
      });
      upstream.on('error', (error) => {
        // Once the answer came, its own stream tells whether it arrived whole; the request's side no longer matters
        // (a target that answered early and closed fails the rest of the body's writes). Nor once the proxy answered.
        if (answered || settled) return;
        // A kept-alive connection the target closed as it was reused: a request without a body is sent again
        // once on a new one (RFC 9112 §9.3.1), as reverse proxies do.
        if (!hasBody && !resent && upstream.reusedSocket && !res.headersSent) return attempt(true);
        clearTimeout(grace);
        if (!res.headersSent)
          badGateway(
            stoppedBy
              ? `docproc proxy: the target ${target.origin} stopped reading the request's body (${stoppedBy.message}) and closed without an answer (${error.message})`
              : `docproc proxy: the target ${target.origin} could not be reached (${error.message})`,
          );
        else {
          res.destroy(error);
          settle({ complete: false, reason: `the target's answer broke off: ${error.message}`, answeredByProxy: false });
        }
      });
      if (!hasBody) upstream.end();
    };
    attempt(false);
    // A client that goes away takes its request to the target with it.
    res.on('close', () => {
      clearTimeout(grace);
      if (!res.writableFinished) {
        upstream.destroy();
        settle({ complete: false, reason: 'the client closed the connection before the answer ended', answeredByProxy: false });
      }
    });
    if (hasBody) {
      req.on('data', (chunk: Buffer) => taps.requestChunk(chunk));
      req.pipe(upstream!);
    } else req.resume();
  };
  return {
    forward,
    close: () => {
      agent.destroy();
      fresh.destroy();
    },
  };
}
