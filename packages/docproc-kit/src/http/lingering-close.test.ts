import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type RunningReferenceServer, startReferenceServer, until, uploadTempFiles } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LingerEnd, LingeringLimits } from './lingering-close.js';

// Answers sent before the request's body arrived (a file past the limit, a file that is not a document, no
// key, no multipart) reach a client still sending: the connection is read to the end of the body, or to
// a bound, before it closes, on a real port with raw sockets.
const KEY = 'lingering-key';
const MAX_FILE_BYTES = 1024 * 1024;
const BOUNDARY = 'lingerlingerlinger';
const PDF_HEAD = Buffer.from('%PDF-1.4\n');

interface Started {
  server: RunningReferenceServer;
  ends: Array<{ end: LingerEnd; dropped: number; at: number }>;
}
async function start(lingering: Partial<LingeringLimits> = {}): Promise<Started> {
  const ends: Started['ends'] = [];
  const server = await startReferenceServer({
    apiKeys: [KEY],
    maxFileBytes: MAX_FILE_BYTES,
    lingering,
    onLingerEnd: (end, dropped) => ends.push({ end, dropped, at: Date.now() }),
  });
  return { server, ends };
}

interface Upload {
  /** The file's bytes after its first ones; `Infinity`: never ends. */
  fileBytes: number;
  firstBytes?: Buffer;
  headers?: Record<string, string>;
  /** Bytes per write, and the pause after each (0: as fast as the socket takes them). */
  chunk?: number;
  pauseMs?: number;
  /** Stop writing (the socket stays open) once this many body bytes are out. */
  stopAfter?: number;
  /** Read the answer only once every byte is written (a client that does not watch while it sends). */
  readAfterSending?: boolean;
  /** Close the connection as soon as the whole answer is in (a keep-alive client done with it). */
  closeOnAnswer?: boolean;
}
interface Sent {
  answer: string;
  written: number;
  finishedSending: boolean;
  /** Whether the server ended the connection before the client did. */
  serverEnded: boolean;
  writeError?: string;
  /** When the first byte was sent (epoch ms); since then: the answer's first byte, the end of sending, the connection's close. */
  startedAt: number;
  answeredAtMs: number;
  sentAtMs: number;
  closedAtMs: number;
}

/** One upload on a raw socket: the multipart body written as `upload` says, whatever the server does. */
function send(port: number, upload: Upload): Promise<Sent> {
  const { fileBytes, firstBytes = PDF_HEAD, chunk = 64 * 1024, pauseMs = 0, stopAfter = Infinity, readAfterSending = false } = upload;
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files[]"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const total = head.length + firstBytes.length + fileBytes + tail.length;
  const headers = {
    'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
    'x-api-key': KEY,
    ...(Number.isFinite(total) ? { 'Content-Length': String(total) } : { 'Transfer-Encoding': 'chunked' }),
    ...upload.headers,
  };
  const chunked = !Number.isFinite(total);
  const frame = (bytes: Buffer) =>
    chunked ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]) : bytes;
  return new Promise((resolve) => {
    const started = Date.now();
    // Half-open, as a client that goes on sending after the server's end of the connection.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const sent: Sent = {
      answer: '',
      written: 0,
      finishedSending: false,
      serverEnded: false,
      startedAt: started,
      answeredAtMs: -1,
      sentAtMs: -1,
      closedAtMs: -1,
    };
    // A half-open client that has stopped sending never sees the server's close (its FIN came first): done then.
    const settle = () => {
      if (sent.closedAtMs < 0) sent.closedAtMs = Date.now() - started;
      resolve(sent);
    };
    const zeros = Buffer.alloc(chunk);
    let left = fileBytes;
    const onData = (data: Buffer) => {
      if (sent.answeredAtMs < 0) sent.answeredAtMs = Date.now() - started;
      sent.answer += data.toString();
      if (upload.closeOnAnswer && answerIsWhole(sent.answer)) socket.destroy();
    };
    if (!readAfterSending) socket.on('data', onData);
    socket.on('error', (error: NodeJS.ErrnoException) => (sent.writeError ??= error.code ?? error.message));
    socket.on('close', settle);
    socket.on('end', () => {
      sent.serverEnded = true;
      if (sent.finishedSending) settle();
    });
    const write = (bytes: Buffer, then: () => void) => {
      if (socket.destroyed) return;
      sent.written += bytes.length;
      if (socket.write(frame(bytes))) setTimeout(then, pauseMs);
      else socket.once('drain', () => setTimeout(then, pauseMs));
    };
    const finish = () => {
      sent.finishedSending = true;
      sent.sentAtMs = Date.now() - started;
      if (readAfterSending) socket.on('data', onData);
      if (sent.serverEnded) setImmediate(settle);
    };
    const next = () => {
      if (sent.written >= stopAfter) return finish();
      if (left <= 0) return write(tail, () => (chunked ? socket.write('0\r\n\r\n', finish) : finish()));
      const n = Math.min(chunk, left);
      left -= n;
      write(n === chunk ? zeros : zeros.subarray(0, n), next);
    };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`POST /api/v1/documents/upload_files HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n`);
    write(Buffer.concat([head, firstBytes]), next);
  });
}

/** Whether an answer's head and all the body its Content-Length announces are in. */
function answerIsWhole(answer: string): boolean {
  const headEnd = answer.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length: *(\d+)/i.exec(answer.slice(0, headEnd))?.[1];
  return headEnd >= 0 && length !== undefined && Buffer.byteLength(answer.slice(headEnd + 4)) >= Number(length);
}
const problemOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { status: number; code: string };
const portOf = (server: RunningReferenceServer) => Number(new URL(server.baseUrl).port);
async function storedCount(server: RunningReferenceServer): Promise<number> {
  const res = await fetch(`${server.baseUrl}/api/v1/documents/get_documents`, { headers: { 'x-api-key': KEY } });
  return ((await res.json()) as { pagination: { total: number } }).pagination.total;
}

describe('an answer sent before the body arrived', () => {
  let started: Started;
  let text: Buffer;
  beforeAll(async () => {
    [started, text] = await Promise.all([start(), readFile(fixturePath('not-a-document.txt'))]);
  });
  afterAll(() => started?.server.close());

  const over = 8 * MAX_FILE_BYTES;
  it.each<[string, () => Upload, number, string]>([
    ['a file eight times the limit', () => ({ fileBytes: over }), 413, 'file_too_large'],
    ['a text file named .pdf, refused at its first bytes', () => ({ fileBytes: over, firstBytes: text }), 415, 'unsupported_media_type'],
    ['no API key', () => ({ fileBytes: over, headers: { 'x-api-key': '' } }), 401, 'unauthorized'],
    ['a body that is not multipart', () => ({ fileBytes: over, headers: { 'Content-Type': 'application/pdf' } }), 400, 'invalid_request'],
  ])(
    '%s: a client that reads only once it has sent everything gets the whole problem, Connection: close, then the end; nothing is stored',
    async (_name, upload, status, code) => {
      const sent = await send(portOf(started.server), { ...upload(), readAfterSending: true });
      expect(sent.writeError).toBeUndefined();
      expect(sent.finishedSending).toBe(true);
      expect(sent.answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(sent.answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(problemOf(sent.answer)).toMatchObject({ status, code });
      expect(await storedCount(started.server)).toBe(0);
      expect(await uploadTempFiles(started.server.dataDir)).toEqual([]);
    },
  );

  it('a file a byte over the limit, whose body has all arrived by then: the problem, and the connection stays open', async () => {
    const upload = { fileBytes: MAX_FILE_BYTES + 1 - PDF_HEAD.length, readAfterSending: true, closeOnAnswer: true };
    const sent = await send(portOf(started.server), upload);
    expect(problemOf(sent.answer)).toMatchObject({ status: 413, code: 'file_too_large' });
    expect(sent.answer).toMatch(/\r\nConnection: keep-alive\r\n/i);
    expect(sent.serverEnded).toBe(false);
    expect(await storedCount(started.server)).toBe(0);
  });

  it('arrives while the client is still sending the rest of a file past the limit', async () => {
    // 4 MiB at 16 KiB every 10 ms (about 1.5 MiB/s): seconds of body after the limit is crossed at 1 MiB.
    const sent = await send(portOf(started.server), { fileBytes: 4 * MAX_FILE_BYTES, chunk: 16 * 1024, pauseMs: 10 });
    expect(problemOf(sent.answer)).toMatchObject({ status: 413, code: 'file_too_large' });
    expect(sent.answeredAtMs).toBeGreaterThan(0);
    expect(sent.answeredAtMs).toBeLessThan(sent.sentAtMs);
  }, 60_000);
});

describe('the lingering is bounded', () => {
  it.each<[string, Partial<LingeringLimits>, Upload, LingerEnd, (sent: Sent, dropped: number) => void]>([
    [
      'a client that stops sending is closed at the lingering timeout',
      { timeoutMs: 500 },
      { fileBytes: 8 * MAX_FILE_BYTES, stopAfter: 2 * MAX_FILE_BYTES },
      'timeout',
      () => {},
    ],
    [
      'a client that sends forever, fast, is closed at the byte bound',
      { maxBytes: 4 * MAX_FILE_BYTES },
      { fileBytes: Infinity },
      'bytes',
      (sent, dropped) => {
        expect(dropped).toBeGreaterThan(4 * MAX_FILE_BYTES);
        expect(sent.written).toBeLessThan(64 * MAX_FILE_BYTES);
      },
    ],
    [
      'a client that sends forever, slowly, is closed at the lingering time',
      { timeMs: 1_500, timeoutMs: 1_000 },
      { fileBytes: Infinity, chunk: 16 * 1024, pauseMs: 20 },
      'time',
      (sent) => expect(sent.closedAtMs - sent.answeredAtMs).toBeLessThan(5_000),
    ],
  ])('%s', async (_name, lingering, upload, end, check) => {
    const { server, ends } = await start(lingering);
    try {
      const sent = await send(portOf(server), upload);
      expect(problemOf(sent.answer)).toMatchObject({ status: 413, code: 'file_too_large' });
      await until(() => ends.length > 0, 10_000);
      expect(ends.map((e) => e.end)).toEqual([end]);
      // Closed within its bound of the answer (the bound plus a busy machine's slack).
      expect(ends[0]!.at - (sent.startedAt + sent.answeredAtMs)).toBeLessThan((lingering.timeMs ?? lingering.timeoutMs ?? 0) + 3_000);
      check(sent, ends[0]!.dropped);
      expect(await storedCount(server)).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('the drain keeps nothing', () => {
  it('a client sending 1 GiB slowly is closed at the lingering time, and what the server keeps grows by no more than a few MiB meanwhile', async () => {
    const { server, ends } = await start({ timeMs: 4_000, timeoutMs: 2_000, maxBytes: 256 * 2 ** 20 });
    try {
      // What the process keeps, not the garbage its reads leave until the next collection: collected first.
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      const retained = () => {
        gc();
        return process.memoryUsage().rss;
      };
      const baseline = retained();
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, retained())), 500);
      // 64 KiB every 2 ms at most: tens of MiB dropped in the 4 s, under the byte bound, so the time bound cuts it.
      const sent = await send(portOf(server), { fileBytes: 1024 ** 3, chunk: 64 * 1024, pauseMs: 2 });
      clearInterval(sampler);
      expect(problemOf(sent.answer)).toMatchObject({ status: 413, code: 'file_too_large' });
      await until(() => ends.length > 0, 10_000);
      expect(ends.map((e) => e.end)).toEqual(['time']);
      expect(ends[0]!.dropped).toBeGreaterThan(4 * MAX_FILE_BYTES);
      expect(sent.written).toBeLessThan(1024 ** 3 / 8);
      console.log(
        `drained ${(ends[0]!.dropped / 2 ** 20).toFixed(1)} MiB; rss after collection grew ${((peak - baseline) / 2 ** 20).toFixed(1)} MiB`,
      );
      expect(peak - baseline).toBeLessThan(12 * 2 ** 20);
      // Had the drain kept what it read, the growth would be about what it dropped.
      expect(peak - baseline).toBeLessThan(ends[0]!.dropped / 2);
    } finally {
      await server.close();
    }
  }, 30_000);
});
