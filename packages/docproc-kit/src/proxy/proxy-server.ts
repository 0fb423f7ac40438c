import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ObservedExchange } from '@docproc-kit/conformance/observe';
import { DEFAULT_LINGERING, type LingeringLimits, lingeringResponse, type OnLingerEnd } from '../http/lingering-close.js';
import { type BodyTap, createBodyTap } from './body-tap.js';
import { answerControl, CONTROL_PREFIX } from './control-routes.js';
import { createForwarder } from './forwarder.js';
import type { Judging } from './judging.js';
import { createMultipartTap, type MultipartTap } from './multipart-tap.js';

/** Options of {@link createProxyServer}. */
export interface ProxyServerOptions {
  /** The target's base URL. */
  target: string;
  /** Where ended exchanges are judged (createLocalJudging, or createWorkerJudging to keep it off this thread). */
  judging: Judging;
  /** The most bytes of one response body copied for the judge. */
  bodyCap: number;
  /** Verify the target's TLS certificate (default true). */
  verifyTls?: boolean;
  /** CA certificates (PEM) to trust for the target besides Node's own. */
  ca?: string;
  /** Writes the recording (`--record`), for `POST /_proxy/record/flush`. */
  flushRecording?: () => Promise<unknown>;
  /** How long and how much a client connection answered before its body arrived keeps being read (see lingering-close.ts). */
  lingering?: Partial<LingeringLimits>;
  /** Told how each lingering client connection ended. */
  onLingerEnd?: OnLingerEnd;
  /** After the target stopped taking a body, how long its answer is waited for before a 502 (default 2 s). */
  answerGraceMs?: number;
}

/** A running proxy. */
export interface ProxyServer {
  server: Server;
  judging: Judging;
  /** Resolves once every exchange that has ended is judged. */
  settled(): Promise<void>;
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting connections, lets exchanges in flight end (at most `graceMs`), then waits for their judging. */
  close(graceMs?: number): Promise<void>;
}

/**
 * A validating reverse proxy: every request and answer passes byte for byte and streaming; a copy of what
 * the judge needs (headers, a bounded beginning of each answer, an upload's part names and sizes) is handed
 * to the judging once the exchange ended, off the request's path.
 * @example const proxy = createProxyServer({ target, judging: createLocalJudging(settings, contract), bodyCap }); await proxy.listen(0, '127.0.0.1');
 */
export function createProxyServer({
  target: base,
  judging,
  bodyCap,
  verifyTls,
  ca,
  flushRecording,
  lingering = {},
  onLingerEnd,
  answerGraceMs,
}: ProxyServerOptions): ProxyServer {
  const target = new URL(base);
  const { forward, close: closeForwarder } = createForwarder({
    target,
    ...(answerGraceMs !== undefined ? { answerGraceMs } : {}),
    ...(verifyTls !== undefined ? { verifyTls } : {}),
    ...(ca ? { ca } : {}),
  });
  let seq = 0;
  let inFlight = 0;
  let drained: Array<() => void> = [];

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith(CONTROL_PREFIX)) {
      answerControl(req, res, judging, flushRecording).catch((error: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`docproc proxy: ${error.message}`);
      });
      return;
    }
    const startedAt = Date.now();
    const started = performance.now();
    const contentType = req.headers['content-type'] ?? '';
    const multipart: MultipartTap | undefined = /^multipart\/form-data/i.test(contentType) ? createMultipartTap(contentType) : undefined;
    let requestBytes = 0;
    let status = 0;
    let responseRawHeaders: string[] = [];
    let responseTap: BodyTap = createBodyTap(0);
    inFlight += 1;
    forward(req, res, {
      requestChunk(chunk) {
        requestBytes += chunk.length;
        multipart?.write(chunk);
      },
      response(code, rawHeaders) {
        status = code;
        responseRawHeaders = rawHeaders;
        responseTap = createBodyTap(req.method === 'HEAD' ? 0 : bodyCap);
      },
      responseChunk: (chunk) => responseTap.write(chunk),
      done(outcome) {
        const seen: ObservedExchange = {
          seq: ++seq,
          startedAt,
          durationMs: performance.now() - started,
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          requestRawHeaders: req.rawHeaders,
          requestBody: multipart
            ? { kind: 'multipart', tapped: multipart.end() }
            : requestBytes > 0
              ? { kind: 'other', size: requestBytes }
              : { kind: 'none' },
          // An exchange cut off, or answered by the proxy itself, is not the service's: status 0 is counted unjudged.
          status: outcome.complete ? status : 0,
          responseRawHeaders,
          responseBody: responseTap.end(),
        };
        // Handed over in a later turn of the event loop: never on the request's path.
        setImmediate(() => {
          judging.judge(seen);
          inFlight -= 1;
          if (inFlight === 0) for (const wake of drained.splice(0)) wake();
        });
      },
    });
  };

  // An answer relayed before the client's body ended (the target refused an upload early) lingers as `docproc
  // serve` does: the client's rest is read and dropped within bounds, so the client reads the answer, not a reset.
  const server = createServer({ ServerResponse: lingeringResponse({ ...DEFAULT_LINGERING, ...lingering }, onLingerEnd) }, handle);
  // An idle client connection is closed by the client first (browsers, undici and curl keep theirs for
  // seconds), never by the proxy as the client reuses it: a reused connection reset mid-upload cannot be retried.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const settled = async () => {
    if (inFlight > 0) await new Promise<void>((resolve) => drained.push(resolve));
    await judging.settled();
  };
  return {
    server,
    judging,
    settled,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const { port: bound } = server.address() as AddressInfo;
          resolve(`http://${host.includes(':') ? `[${host}]` : host}:${bound}`);
        });
      }),
    async close(graceMs = 5_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
      await settled();
      closeForwarder();
      drained = [];
    },
  };
}
