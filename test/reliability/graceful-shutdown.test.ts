import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// SIGTERM to a real `docproc serve` while 12 clients upload back to back on keep-alive connections
// and two more are still sending slow bodies when the grace period ends; then a restart on the same
// data dir. What the clients were told must be what was stored: every 202 a document, nothing else.
const KEY = 'docproc-dev-key';
const CLIENTS = 12;
const GRACE_MS = 2_000;
const BOUNDARY = 'shutdownboundary';
let dataDir: string;
const servers: RunningCli[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docproc-shutdown-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await rm(dataDir, { recursive: true, force: true });
});

const serve = async () => {
  const server = await startCli(
    ['serve', '--data-dir', dataDir, '--log-format', 'json', '--processing-delay-ms', '600000', '--shutdown-grace-ms', String(GRACE_MS)],
    { readyPath: '/openapi.json' },
  );
  servers.push(server);
  return server;
};

/** What one upload ended as: the status and headers it was answered with, or the error the client saw. */
type Outcome =
  | {
      kind: 'answered';
      status: number;
      headers: Record<string, string | string[] | undefined>;
      body: string;
      sentAfterSignal: boolean;
    }
  | { kind: 'error'; code: string; sentAfterSignal: boolean };

// When the test saw the server log that it is shutting down: requests sent from then on were sent
// after the server's shutdown began (ones sent between the signal and the log line may be either).
let drainingSince = Number.POSITIVE_INFINITY;

function multipart(name: string): { head: Buffer; tail: Buffer } {
  return {
    head: Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files[]"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    tail: Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  };
}

/**
 * One upload on `agent`'s connection; the body is sent whole, dripped over `dripMs`, or (with `hold`)
 * half of it at once and the rest when `hold` resolves.
 */
function upload(port: number, agent: Agent, name: string, pdf: Buffer, dripMs = 0, hold?: Promise<unknown>): Promise<Outcome> {
  const { head, tail } = multipart(name);
  const sentAfterSignal = Date.now() >= drainingSince;
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/api/v1/documents/upload_files',
      method: 'POST',
      agent,
      headers: {
        'x-api-key': KEY,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': head.length + pdf.length + tail.length,
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ kind: 'answered', status: res.statusCode!, headers: res.headers, body, sentAfterSignal }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ kind: 'error', code: error.code ?? error.message, sentAfterSignal }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ kind: 'error', code: error.code ?? error.message, sentAfterSignal }));
    if (hold) {
      req.write(Buffer.concat([head, pdf.subarray(0, pdf.length / 2)]));
      return void hold.then(() => req.end(Buffer.concat([pdf.subarray(pdf.length / 2), tail])));
    }
    if (dripMs === 0) return void req.end(Buffer.concat([head, pdf, tail]));
    // A tenth of the body every tenth of `dripMs`.
    req.write(head);
    const step = Math.ceil(pdf.length / 10);
    let sent = 0;
    const drip = setInterval(() => {
      if (req.destroyed) return clearInterval(drip);
      req.write(pdf.subarray(sent, sent + step));
      sent += step;
      if (sent >= pdf.length) {
        clearInterval(drip);
        req.end(tail);
      }
    }, dripMs / 10);
  });
}

const acknowledgedIds = (outcomes: Outcome[]) =>
  outcomes.flatMap((o) =>
    o.kind === 'answered' && o.status === 202
      ? (JSON.parse(o.body).documents as Array<{ document_id: number }>).map((d) => d.document_id)
      : [],
  );

async function storedIds(baseUrl: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${baseUrl}/api/v1/documents/get_documents?limit=100&page=${page}`, { headers: { 'x-api-key': KEY } });
    const { documents, pagination } = (await res.json()) as {
      documents: Array<{ document_id: number }>;
      pagination: { total_pages: number };
    };
    ids.push(...documents.map((d) => d.document_id));
    if (page >= pagination.total_pages) return ids.sort((a, b) => a - b);
  }
}

/** A keep-alive connection that answered one list and is idle since, as a client's pool keeps it. */
async function idleConnection(port: number): Promise<Agent> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  await new Promise<void>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/api/v1/documents/get_documents', agent, headers: { 'x-api-key': KEY } }, (res) => {
      res.resume();
      res.on('end', resolve);
    })
      .on('error', reject)
      .end();
  });
  return agent;
}

describe('SIGTERM while 12 keep-alive clients upload', () => {
  const outcomes: Outcome[] = [];
  const slow: Outcome[] = [];
  const onIdleConnections: Outcome[] = [];
  let held: Outcome;
  let exitCode: number | null;
  let stored: number[];

  beforeAll(async () => {
    const first = await serve();
    const pdf = await readFile(fixturePath('text.pdf'));
    // ~64 KB each (comment bytes after %%EOF keep it a valid PDF), so bodies take a moment to arrive.
    const body = Buffer.concat([pdf, Buffer.alloc(64 * 1024 - pdf.length, 0x25)]);
    let running = true;
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = 0; running; i++) {
        const outcome = await upload(first.port, agent, `client-${c}-${i}.pdf`, body);
        outcomes.push(outcome);
        if (outcome.kind === 'error' && Date.now() >= drainingSince) break; // the server is gone
      }
      agent.destroy();
    });
    // Let the clients get going, then start two uploads that are still dripping when the grace period ends.
    while (acknowledgedIds(outcomes).length < 3 * CLIENTS) await new Promise((resolve) => setTimeout(resolve, 20));
    const dripping = [0, 1].map((i) =>
      upload(first.port, new Agent({ keepAlive: true }), `slow-${i}.pdf`, body, 3 * GRACE_MS).then((o) => void slow.push(o)),
    );
    const idle = await Promise.all([0, 1, 2].map(() => idleConnection(first.port)));
    let draining!: () => void;
    const holding = upload(
      first.port,
      new Agent({ keepAlive: true }),
      'held.pdf',
      body,
      0,
      new Promise((resolve) => (draining = () => resolve(undefined))),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    first.child.kill('SIGTERM');
    while (!first.output().includes('shutting down')) await new Promise((resolve) => setTimeout(resolve, 5));
    drainingSince = Date.now();
    draining();
    // Requests on the connections that were idle at the signal, while the slow uploads keep it draining.
    onIdleConnections.push(...(await Promise.all(idle.map((agent, i) => upload(first.port, agent, `late-${i}.pdf`, body)))));
    held = await holding;
    exitCode = await first.stop();
    // Clients still trying get refused now; they stop at their first error after the signal.
    await new Promise((resolve) => setTimeout(resolve, 500));
    running = false;
    await Promise.all([...clients, ...dripping]);
    const second = await serve();
    stored = await storedIds(second.baseUrl);
  }, 90_000);

  it('exits 0', () => {
    expect(exitCode).toBe(0);
  });

  it('stored exactly the uploads it acknowledged with a 202, and nothing else', () => {
    const acknowledged = acknowledgedIds([...outcomes, ...slow, ...onIdleConnections, held]).sort((a, b) => a - b);
    expect(acknowledged.length).toBeGreaterThan(3 * CLIENTS);
    expect(stored).toEqual(acknowledged);
  });

  it('finished the upload in flight at the signal: stored, answered 202 with Connection: close', () => {
    expect(held).toMatchObject({ kind: 'answered', status: 202, headers: { connection: 'close' } });
  });

  it('answered requests sent after the signal on connections already open with a 503 problem, Retry-After and Connection: close', () => {
    const late = [...onIdleConnections, ...outcomes.filter((o) => o.sentAfterSignal)];
    expect(onIdleConnections).toHaveLength(3);
    for (const o of late) {
      // Never a reset: a connection still open answers; a new one is refused, so nothing was sent.
      if (o.kind === 'error') {
        expect(o.code).toBe('ECONNREFUSED');
        continue;
      }
      expect(o.status).toBe(503);
      expect(o.headers['retry-after']).toMatch(/^\d+$/);
      expect(o.headers.connection).toBe('close');
      expect(o.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(o.body)).toMatchObject({ status: 503, code: 'service_unavailable' });
    }
  });

  it('did not store the uploads still arriving when the grace period ended', () => {
    expect(slow).toHaveLength(2);
    for (const o of slow) expect(o.kind === 'answered' && o.status === 202).toBe(false);
  });
});
