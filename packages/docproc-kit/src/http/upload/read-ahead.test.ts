import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import type { ReceivedUpload } from '@docproc-kit/reference/http/upload/received-upload.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadReceiver } from './multipart-receiver.js';
import { createReadAheadBudget, READ_AHEAD_BYTES, READ_AHEAD_FLOOR_BYTES, READ_AHEAD_TOTAL_BYTES } from './read-ahead.js';

const MIB = 1024 * 1024;

describe('the read-ahead budget of a process', () => {
  it('gives the full read-ahead to four uploads at once, the floor to a fifth, and the full one again once one ends', () => {
    const budget = createReadAheadBudget();
    const shares = [1, 2, 3, 4].map(() => budget.take());
    expect(shares.map((s) => s.bytes)).toEqual(Array(4).fill(READ_AHEAD_BYTES));
    expect(budget.taken).toBe(READ_AHEAD_TOTAL_BYTES);
    expect(budget.take().bytes).toBe(READ_AHEAD_FLOOR_BYTES);
    shares[0]!.release();
    shares[0]!.release();
    expect(budget.taken).toBe(3 * READ_AHEAD_BYTES);
    expect(budget.take().bytes).toBe(READ_AHEAD_BYTES);
  });

  it('hands out what is left of it when that is more than the floor', () => {
    const budget = createReadAheadBudget({ total: 20 * MIB, perUpload: 16 * MIB, floor: MIB });
    expect([budget.take().bytes, budget.take().bytes, budget.take().bytes]).toEqual([16 * MIB, 4 * MIB, MIB]);
    expect(budget.taken).toBe(20 * MIB);
  });
});

// The receiver as the server runs it, on a real socket: every upload gives its share back however it ends.
describe('an upload receiver', () => {
  const budget = createReadAheadBudget();
  let dir: string;
  let server: Server;
  let port: number;
  const settled: Array<ReceivedUpload | string> = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docproc-read-ahead-'));
    const receive = createUploadReceiver(dir, { maxFileBytes: MIB, maxFiles: 3, maxFilenameLength: 255 }, budget);
    server = createServer((req, res) => {
      receive(req, res, { keep: false }).then(
        (got) => {
          settled.push(got);
          res.writeHead(got.kind === 'received' ? 202 : 400, { connection: 'close' }).end();
        },
        (error: Error) => {
          settled.push(error.message);
          res.destroy();
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  /** Sends a multipart body of one file; with `cutAfter`, the client goes away after that many bytes of it. */
  function upload(file: Buffer, cutAfter?: number): Promise<void> {
    const boundary = 'readaheadreadahead';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return new Promise((resolve) => {
      const req = request({
        port,
        host: '127.0.0.1',
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length },
      });
      req.on('response', (res) => res.resume().on('end', resolve)).on('error', () => resolve());
      if (cutAfter === undefined) req.end(body);
      else
        req.write(body.subarray(0, cutAfter), () =>
          setTimeout(() => {
            req.destroy();
            resolve();
          }, 50),
        );
    });
  }

  const until = async (done: () => boolean) => {
    for (const end = Date.now() + 5_000; !done() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
    return done();
  };

  it.each([
    ['accepted', async (pdf: Buffer) => upload(pdf), 'received'],
    ['refused as too large', async (pdf: Buffer) => upload(Buffer.concat([pdf, Buffer.alloc(MIB)])), 'refused'],
    ['cut off by its client halfway', async (pdf: Buffer) => upload(Buffer.concat([pdf, Buffer.alloc(MIB / 2)]), 300 * 1024), 'refused'],
  ])('gives its share back when it is %s', async (_, send, outcome) => {
    const before = settled.length;
    await send(await readFile(fixturePath('text.pdf')));
    expect(await until(() => settled.length > before)).toBe(true);
    expect(typeof settled.at(-1) === 'string' ? 'error' : (settled.at(-1) as ReceivedUpload).kind).toBe(outcome);
    expect(budget.taken).toBe(0);
  });
});
