import { connect, type Socket } from 'node:net';
import { createDocprocClient } from '@docproc-kit/client';
import { startReferenceServer, until, uploadTempFiles } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Slowloris on loopback, bounded: 200 connections that dribble their headers must neither hold
// their sockets past the headers timeout nor slow down a normal client meanwhile.
type Server = Awaited<ReturnType<typeof startReferenceServer>>;
const HEADERS_TIMEOUT_MS = 1_000;
const SLOW_CLIENTS = 200;
let server: Server;
beforeAll(async () => {
  // All 200 come from 127.0.0.1: the per-address cap (connection-fairness.test.ts) is off here.
  server = await startReferenceServer({
    timeouts: { headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: 5_000 },
    maxConnectionsPerAddress: 0,
  });
});
afterAll(() => server?.close());

interface Slow {
  socket: Socket;
  closedAfterMs: Promise<number>;
  answer: Promise<string>;
}

function slowClient(port: number): Slow {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => {});
  socket.write('GET /api/v1/documents/get_documents HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  // One more header byte every 100 ms, never finishing the headers.
  const drip = setInterval(() => socket.writable && socket.write('X'), 100);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    closedAfterMs: closed.then(() => {
      clearInterval(drip);
      return Date.now() - started;
    }),
    answer: closed.then(() => answer),
  };
}

describe('slow clients', () => {
  it('200 connections dribbling headers are cut after the headers timeout with a 408 problem, and others are served meanwhile', async () => {
    const port = Number(new URL(server.baseUrl).port);
    const slow = Array.from({ length: SLOW_CLIENTS }, () => slowClient(port));
    try {
      const client = createDocprocClient({ baseUrl: server.baseUrl, apiKey: 'docproc-dev-key' });
      const latencies: number[] = [];
      for (let i = 0; i < 40; i++) {
        const started = performance.now();
        const { response } = await client.listDocuments();
        expect(response.status).toBe(200);
        latencies.push(performance.now() - started);
      }
      expect(Math.max(...latencies)).toBeLessThan(500);

      const closedAfter = await Promise.all(slow.map((s) => s.closedAfterMs));
      // Node checks the timeout once a second, so a slow socket lives at most ~timeout + 1 s.
      expect(Math.max(...closedAfter)).toBeLessThan(HEADERS_TIMEOUT_MS + 2_500);
      const answers = await Promise.all(slow.map((s) => s.answer));
      const answered = answers.filter((a) => a.startsWith('HTTP/1.1 408'));
      expect(answered.length).toBe(SLOW_CLIENTS);
      const body = JSON.parse(answered[0]!.slice(answered[0]!.indexOf('\r\n\r\n') + 4)) as { status: number; code: string };
      expect(answered[0]).toContain('Content-Type: application/problem+json');
      expect(body).toMatchObject({ status: 408, code: 'invalid_request' });
    } finally {
      for (const s of slow) s.socket.destroy();
    }
  }, 30_000);

  it('answers malformed HTTP with a 400 problem instead of bare text', async () => {
    const port = Number(new URL(server.baseUrl).port);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.write('GET /api/v1/documents/get_documents HTTP/1.1\r\nHost: x\r\nBad Header Name: y\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('application/problem+json');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});

// Uploads whose body drips: a few hundred of them must be cut at the minimum rate, leave no temp
// file, and not lock anyone else out meanwhile; connections beyond the cap wait only for the headers
// timeout (2 s here), for a request to answer 503.
describe('slow uploads and too many connections', () => {
  const WINDOW_MS = 1_000;
  const DRIPS = 300;
  const CAP = 400;
  const HEADERS_WAIT_MS = 2_000;
  let drips: Server;
  beforeAll(async () => {
    drips = await startReferenceServer({
      minUploadRate: { bytesPerSecond: 1_000, windowMs: WINDOW_MS },
      timeouts: { headersTimeoutMs: HEADERS_WAIT_MS },
      maxConnections: CAP,
      maxConnectionsPerAddress: 0,
    });
  });
  afterAll(() => drips?.close());

  function dripUpload(port: number): Slow {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', () => {});
    const head = '--b\r\nContent-Disposition: form-data; name="files[]"; filename="drip.pdf"\r\n\r\n%PDF-1.7\n';
    socket.write(
      'POST /api/v1/documents/upload_files HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: docproc-dev-key\r\n' +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n${head}`,
    );
    // Ten bytes a second: far below the minimum of 1,000.
    const drip = setInterval(() => socket.writable && socket.write('%%%%%%%%%%'), 1_000);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    return {
      socket,
      closedAfterMs: closed.then(() => {
        clearInterval(drip);
        return Date.now() - started;
      }),
      answer: closed.then(() => answer),
    };
  }

  it(`${DRIPS} dripping uploads are cut with a 408 problem within two windows, leave no temp file, and others are served meanwhile`, async () => {
    const port = Number(new URL(drips.baseUrl).port);
    const slow = Array.from({ length: DRIPS }, () => dripUpload(port));
    try {
      // Their temp files exist: the drips really are mid-upload.
      expect(await until(async () => (await uploadTempFiles(drips.dataDir)).length > 0, 5_000)).toBe(true);
      const client = createDocprocClient({ baseUrl: drips.baseUrl, apiKey: 'docproc-dev-key' });
      for (let i = 0; i < 20; i++) expect((await client.listDocuments()).response.status).toBe(200);

      const closedAfter = await Promise.all(slow.map((s) => s.closedAfterMs));
      expect(Math.max(...closedAfter)).toBeLessThan(2 * WINDOW_MS + 3_000);
      const answers = await Promise.all(slow.map((s) => s.answer));
      expect(answers.filter((a) => a.startsWith('HTTP/1.1 408')).length).toBe(DRIPS);
      expect(answers[0]).toMatch(/content-type: application\/problem\+json/i);
      expect(await until(async () => (await uploadTempFiles(drips.dataDir)).length === 0, 5_000)).toBe(true);
      expect((await client.listDocuments()).data!.pagination.total).toBe(0);
    } finally {
      for (const s of slow) s.socket.destroy();
    }
  }, 60_000);

  it(`keeps at most ${CAP} connections open within the cap, those beyond only until the headers timeout, and serves meanwhile`, async () => {
    const port = Number(new URL(drips.baseUrl).port);
    // The connections of the test before are gone.
    expect(await until(() => drips.connectionCounts()!.open === 0, 5_000)).toBe(true);
    const sockets = await Promise.all(
      Array.from(
        { length: CAP + 20 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(port, '127.0.0.1', () => resolve(socket));
            socket.on('error', () => {});
          }),
      ),
    );
    try {
      expect(await until(() => drips.connectionCounts()!.overLimit === 20, 2_000)).toBe(true);
      expect(drips.connectionCounts()).toMatchObject({ open: CAP, refused: 0 });
      // Once idle for the grace (1 s), a client's new connection takes the place of the oldest of them.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const client = createDocprocClient({ baseUrl: drips.baseUrl, apiKey: 'docproc-dev-key' });
      expect((await client.listDocuments()).response.status).toBe(200);
      expect(drips.connectionCounts()!.evicted).toBeGreaterThanOrEqual(1);
      // Those beyond the cap, sending nothing, are closed at the headers timeout.
      expect(await until(() => drips.connectionCounts()!.overLimit === 0, HEADERS_WAIT_MS + 2_000)).toBe(true);
    } finally {
      for (const s of sockets) s.destroy();
    }
  }, 30_000);
});
