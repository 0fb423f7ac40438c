import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { redactQuery } from '@docproc-kit/reference/http/redaction.js';
import { type Logger, type LoggerOptions, pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createRequestLog } from './logging.js';
import { requestState } from './request-state.js';

// The request log line is written straight to pino's destination; it must read exactly as the line
// pino itself writes for the same fields (log shippers parse it), at the levels pino would write it.
function sink() {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, written };
}

// Serves one request through the request log, answering `status`, and resolves once the line is out.
async function logOne(logger: Logger, path: string, status: number, { tenant, id }: { tenant?: string; id: string }) {
  const logRequest = createRequestLog(logger);
  let received = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    received = req.url!;
    req.id = id;
    logRequest(req, res);
    if (tenant) requestState(res).tenant = tenant;
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await (await fetch(`http://127.0.0.1:${port}${path}`)).arrayBuffer();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  await new Promise((resolve) => setImmediate(resolve));
  return received;
}

const withoutTime = (line: string) => line.replace(/"time":("[^"]*"|\d+)/, '"time":0');

// Logs one request through the request log and the same fields through pino itself, with a logger made
// from `options` each time, and expects the two lines equal but for the time.
async function expectAsPino(
  options: LoggerOptions,
  { status, path, tenant, id }: { status: number; path: string; tenant?: string; id: string },
) {
  const direct = sink();
  // As the client sent it (fetch escapes the quotes), secrets redacted.
  const url = redactQuery(await logOne(pino(options, direct.stream), path, status, { tenant, id }));
  expect(direct.written).toHaveLength(1);
  expect(direct.written[0]).not.toContain('s3cret');

  const viaPino = sink();
  const durationMs = Number(/"durationMs":([\d.]+)/.exec(direct.written[0]!)![1]);
  const fields = { requestId: id, req: { method: 'GET', url: url }, res: { statusCode: status }, durationMs, tenant };
  const message = `GET ${url} ${status} ${Math.round(durationMs)} ms`;
  const logger = pino(options, viaPino.stream);
  if (status >= 500) logger.error(fields, message);
  else logger.info(fields, message);
  await new Promise((resolve) => setImmediate(resolve));
  expect(withoutTime(direct.written[0]!)).toBe(withoutTime(viaPino.written[0]!));
}

describe('the request log line', () => {
  it.each([
    { status: 200, path: '/api/v1/documents/get_documents?limit=20', tenant: 'tenant-a', id: 'id-1' },
    { status: 401, path: '/x?api_key=s3cret&q="quoted"', tenant: undefined, id: 'id "2" \\ é' },
    { status: 503, path: '/_mock/reset', tenant: 'tenant-b', id: 'id-3' },
  ])('for a $status reads byte for byte as pino writes it', async ({ status, path, tenant, id }) => {
    await expectAsPino({ level: 'info' }, { status, path, tenant, id });
  });

  it.each<[string, LoggerOptions]>([
    ['ISO timestamps', { timestamp: pino.stdTimeFunctions.isoTime }],
    ['level labels', { formatters: { level: (label) => ({ level: label }) } }],
    ['another message key', { messageKey: 'message' }],
    ['other base fields', { base: { service: 'docproc' } }],
    ['a mixin', { mixin: () => ({ mixed: true }) }],
    ['a log formatter', { formatters: { log: (fields) => ({ ...fields, formatted: true }) } }],
    ['a redaction', { redact: ['req.url'] }],
    ['a serializer of a line key', { serializers: { res: (res: { statusCode: number }) => ({ code: res.statusCode }) } }],
    ['a message prefix', { msgPrefix: '[api] ' }],
  ])('reads as pino writes it for a logger with %s', async (_what, options) => {
    await expectAsPino({ level: 'info', ...options }, { status: 200, path: '/x?y=1', tenant: 't', id: 'options' });
  });

  it.each([
    ['info', 200, 1],
    ['warn', 200, 0],
    ['warn', 500, 1],
    ['silent', 500, 0],
  ] as const)('at level %s, a %i is written %i time(s)', async (level, status, times) => {
    const out = sink();
    await logOne(pino({ level }, out.stream), '/x', status, { id: 'level' });
    expect(out.written).toHaveLength(times);
  });

  it('carries a child logger’s bindings, as pino would', async () => {
    const out = sink();
    await logOne(pino({ level: 'info' }, out.stream).child({ replica: 'r1' }), '/x', 200, { id: 'child' });
    expect(JSON.parse(out.written[0]!)).toMatchObject({ replica: 'r1', requestId: 'child', res: { statusCode: 200 } });
  });

  it('goes through pino to a destination that wants its metadata (a multistream)', async () => {
    const out = sink();
    await logOne(pino({ level: 'info' }, pino.multistream([{ stream: out.stream }])), '/x', 200, { id: 'multi' });
    expect(JSON.parse(out.written[0]!)).toMatchObject({ level: 30, requestId: 'multi', req: { method: 'GET', url: '/x' } });
  });
});
