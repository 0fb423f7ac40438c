import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { createTestRecord } from '../../report/recorder.js';
import { createHttp } from '../http.js';
import { createJudge } from '../judge.js';
import { releaseTogether } from './release.js';

// A bare TCP server that answers each request once it has all of it, noting when: released together, no
// request is complete before the release.
const contract = await loadContract();
const N = 5;
const completions: Array<{ at: bigint }> = [];
const server = createServer((socket) => {
  let received = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    if (received.indexOf('\r\n\r\n') < 0) return;
    completions.push({ at: process.hrtime.bigint() });
    const body = JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'busy', code: 'document_busy' });
    socket.end(
      `HTTP/1.1 409 Conflict\r\ncontent-type: application/problem+json\r\nx-request-id: ${/x-request-id: (\S+)/.exec(received.toString())?.[1]}\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
  });
});
let baseUrl: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('releaseTogether', () => {
  it('holds every request back by its last byte, then lets them all go at once: none is complete before the release', async () => {
    const judge = createJudge('full');
    judge.use(createTestRecord());
    const http = createHttp({
      baseUrl,
      keys: { primary: 'k' },
      contract,
      strict: false,
      requestTimeoutMs: 5000,
      requestIdPrefix: 'race',
      reproDir: '/tmp',
      judge,
    });
    const race = await releaseTogether(
      http,
      Array.from({ length: N }, () => ({ operation: 'retryDocument', params: { document_id: 7 } })),
      5000,
    );
    expect(race.exchanges.map((e) => e.status)).toEqual(Array(N).fill(409));
    // No request was complete before the release: each was held back by its last byte until then.
    expect(completions).toHaveLength(N);
    expect(completions.filter((c) => c.at < race.releasedAt)).toEqual([]);
    // The last bytes went out in one synchronous loop.
    expect(Math.max(...race.entries.map((e) => e.releasedMs))).toBeLessThan(50);
    expect(race.schedule()).toMatch(new RegExp(`^${N} requests \\(POST /api/v1/documents/retry_documents/7\\)`));
    expect(race.script()).toMatch(/^#!\/bin\/sh\n/);
    expect(race.script()).not.toContain("'k'");
  });
});
