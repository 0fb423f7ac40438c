import { createServer } from 'node:net';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRecord } from '../definitions/records.js';
import { createHttp } from '../transport/http.js';
import { createJudge } from './judge.js';
import { releaseTogether } from './race.js';

// A bare TCP server that answers each request once it has all of it, noting when: released together, no
// request is complete before the release.
const contract = await loadContract();
const N = 5;
const completions: Array<{ at: bigint }> = [];
// How many of the next requests a gateway turns away with a 429 (Retry-After: 0): nginx's own, naming
// itself and carrying no X-Request-Id, so it is waited out as an intermediary's (a service's own is judged).
let turnAway = 0;
const server = createServer((socket) => {
  let received = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    if (received.indexOf('\r\n\r\n') < 0) return;
    completions.push({ at: process.hrtime.bigint() });
    if (turnAway > 0) {
      turnAway--;
      const busy = JSON.stringify({ type: 'about:blank', title: 'Too Many Requests', status: 429, code: 'too_many_requests' });
      return socket.end(
        `HTTP/1.1 429 Too Many Requests\r\nserver: nginx\r\ncontent-type: application/problem+json\r\nretry-after: 0\r\ncontent-length: ${busy.length}\r\n\r\n${busy}`,
      );
    }
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

function recording() {
  const judge = createJudge('full');
  const record = createTestRecord();
  judge.use(record);
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
  return { http, record };
}

const retries = (n: number) => Array.from({ length: n }, () => ({ operation: 'retryDocument', params: { document_id: 7 } }));

describe('releaseTogether with a gateway that turns some racers away', () => {
  it('leaves turned-away racers out of the race (they never reached the service), unjudged, and says so in the schedule', async () => {
    const { http, record } = recording();
    turnAway = 2;
    const race = await releaseTogether(http, retries(N), 5000);
    expect(race.entries.filter((e) => e.turnedAway === 429)).toHaveLength(2);
    expect(race.exchanges.map((e) => e.status)).toEqual(Array(N - 2).fill(409));
    expect(race.schedule()).toMatch(/turned away \(429, never reached the service\)/);
    expect(record.failures).toEqual([]);
  });

  it('sends each turned-away racer again alone when the race allows it (uploads)', async () => {
    const { http, record } = recording();
    turnAway = 1;
    const race = await releaseTogether(http, retries(N), 5000, { turnedAway: 'resend' });
    expect(race.exchanges.map((e) => e.status)).toEqual(Array(N).fill(409));
    expect(record.resends).toEqual([expect.objectContaining({ status: 429, retryAfter: '0' })]);
  });

  it('runs the race again when every racer was turned away: nothing changed anywhere', async () => {
    const { http, record } = recording();
    turnAway = N;
    const race = await releaseTogether(http, retries(N), 5000);
    expect(race.exchanges.map((e) => e.status)).toEqual(Array(N).fill(409));
    expect(race.entries.every((e) => e.turnedAway === undefined)).toBe(true);
    expect(record.resends).toHaveLength(1);
  });
});

describe('releaseTogether', () => {
  it('holds every request back by its last byte, then lets them all go at once: none is complete before the release', async () => {
    completions.length = 0;
    const { http } = recording();
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
