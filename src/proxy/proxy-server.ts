import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TRANSIENT_STATUSES } from '../../conformance/kit/transient.js';
import { cap } from '../../conformance/report/failure-format.js';
import type { Contract } from '../contract/contract.js';
import { type BodyTap, createBodyTap } from './body-tap.js';
import { answerControl, CONTROL_PREFIX } from './control-routes.js';
import { createForwarder } from './forwarder.js';
import { createMultipartTap, type MultipartTap } from './multipart-tap.js';
import { type SeenExchange, toExchange } from './observed-exchange.js';
import { judgeRequest } from './request-judge.js';
import { judgeResponse } from './response-judge.js';
import { createSessionFacts } from './session-facts.js';
import { createViolationStore, type Violation, type ViolationStore } from './violation-store.js';

/** Options of {@link createProxyServer}. */
export interface ProxyServerOptions {
  /** The target's base URL. */
  target: string;
  contract: Contract;
  /** Warnings (undocumented properties, an intermediary's answer) are violations too. */
  strict?: boolean;
  /** The most bytes of one response body the judge keeps (default 2 MiB); a longer one is judged on its status and headers. */
  judgeBodyBytes?: number;
  /** Violations (and violating exchanges) kept for /_proxy/violations and the report (default 1000); counts are kept whole. */
  keepViolations?: number;
  /** Verify the target's TLS certificate (default true). */
  verifyTls?: boolean;
  /** Where the one line per violation goes (default: nowhere). */
  log?: (line: string) => void;
}

/** A running proxy. */
export interface ProxyServer {
  server: Server;
  store: ViolationStore;
  /** Resolves once every exchange that has ended is judged. */
  settled(): Promise<void>;
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting connections, lets exchanges in flight end (at most `graceMs`), then judges what is left. */
  close(graceMs?: number): Promise<void>;
}

const DEFAULT_JUDGE_BODY_BYTES = 2 * 1024 * 1024;
const DEFAULT_KEEP = 1_000;

/** The one log line of a violation: check, side, request, Received/Expected, reproducer (no key). */
export function violationLine(v: Violation): string {
  const flat = (text: string) => cap(text.replace(/\s*\n\s*/g, ' | '));
  return `docproc proxy: violation [${v.check}] (${v.side}) ${v.request}${v.requestId ? ` (X-Request-Id ${v.requestId})` : ''}: received ${flat(v.received)}; expected ${flat(v.expected)}; reproduce: ${v.curl ?? '(none)'}`;
}

// Tenants are told apart by their key, kept only as a digest in memory.
function tenantOf(rawHeaders: readonly string[]): string {
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.toLowerCase() === 'x-api-key')
      return createHash('sha256')
        .update(rawHeaders[i + 1]!)
        .digest('base64url')
        .slice(0, 16);
  return '';
}

/**
 * A validating reverse proxy: every request and answer passes byte for byte and streaming; a copy of what
 * the judge needs (headers, a bounded beginning of each answer, an upload's part names and sizes) is judged
 * after the exchange ended, off the request's path, by the conformance suite's own checks.
 * @example const proxy = createProxyServer({ target: 'http://127.0.0.1:8080', contract }); const url = await proxy.listen(0, '127.0.0.1');
 */
export function createProxyServer(options: ProxyServerOptions): ProxyServer {
  const target = new URL(options.target);
  const bodyCap = options.judgeBodyBytes ?? DEFAULT_JUDGE_BODY_BYTES;
  const strict = options.strict ?? false;
  const store = createViolationStore({ target: target.href, capacity: options.keepViolations ?? DEFAULT_KEEP });
  const facts = createSessionFacts(10_000);
  const { forward, close: closeForwarder } = createForwarder({
    target,
    ...(options.verifyTls !== undefined ? { verifyTls: options.verifyTls } : {}),
  });
  let seq = 0;
  let pending = 0;
  let idle: Array<() => void> = [];

  const judge = (seen: SeenExchange) => {
    try {
      if (TRANSIENT_STATUSES.has(seen.status)) return store.skip('transient');
      const { exchange, bodyJudged } = toExchange(seen, { contract: options.contract, target, bodyCap });
      if (!bodyJudged) store.bodyNotJudged();
      const verdicts = [
        ...judgeRequest(seen, exchange, options.contract),
        ...judgeResponse(exchange, { contract: options.contract, strict, bodyJudged }),
        ...(bodyJudged
          ? facts.observe(
              exchange,
              seen.requestBody.kind === 'multipart' ? seen.requestBody.tapped : undefined,
              tenantOf(seen.requestRawHeaders),
            )
          : []),
      ];
      for (const violation of store.add(seen, exchange, verdicts)) options.log?.(violationLine(violation));
    } catch (error) {
      // Judging never breaks the proxy: a judge that cannot read an exchange says so and goes on.
      store.skip('not-judged');
      options.log?.(`docproc proxy: could not judge ${seen.method} ${seen.url.split('?')[0]}: ${(error as Error).message}`);
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith(CONTROL_PREFIX))
      return answerControl(req, res, { newest: (n) => store.newest(n), total: () => store.total, summary: () => store.summary() });
    const startedAt = Date.now();
    const started = performance.now();
    const contentType = req.headers['content-type'] ?? '';
    const multipart: MultipartTap | undefined = /^multipart\/form-data/i.test(contentType) ? createMultipartTap(contentType) : undefined;
    let requestBytes = 0;
    let status = 0;
    let responseRawHeaders: string[] = [];
    let responseTap: BodyTap = createBodyTap(bodyCap);
    pending += 1;
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
        const seen: SeenExchange = {
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
          status,
          responseRawHeaders,
          responseBody: responseTap.end(),
        };
        // Judged after the answer went out, in a later turn of the event loop: never on the request's path.
        setImmediate(() => {
          if (outcome.complete) judge(seen);
          else store.skip('not-judged');
          pending -= 1;
          if (pending === 0) for (const wake of idle.splice(0)) wake();
        });
      },
    });
  };

  const server = createServer(handle);
  const settled = () => (pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve)));
  return {
    server,
    store,
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
      idle = [];
    },
  };
}
