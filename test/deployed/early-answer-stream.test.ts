import { readFileSync } from 'node:fs';
import { makePrivateCa, type PrivateCa } from '@docproc-kit/test-support/certificates.js';
import { type Balancer, startNginx } from '@docproc-kit/test-support/nginx.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';

// An answer sent while the client is still sending its body (here a 409: a repeat under a key whose first
// upload is still arriving), through nginx's TCP stream proxy as deployed.test.ts runs it. nginx relays a
// connection until either side ends it: a server that shut its side at once would have nginx close the
// client's connection under the rest of its body, and the client, reset, lose the answer.
const KEY = 'early-answer-key';
const ROUNDS = 40;
let server: RunningReferenceServer;
let ca: PrivateCa;
let tls: Balancer;
let agent: Agent;

beforeAll(async () => {
  server = await startReferenceServer({ apiKeys: [KEY], maxFileBytes: 65_536, processingDelayMs: 200 });
  ca = makePrivateCa();
  tls = await startNginx([new URL(server.baseUrl).host], { layer: 'tcp', tls: ca });
  agent = new Agent({ connect: { ca: readFileSync(ca.caFile, 'utf8') } });
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await tls?.stop();
  await server?.close();
  ca?.remove();
}, 30_000);

/** An upload as the conformance suite sends it (fetch, a FormData body), answered by its status or the error that lost it. */
async function upload(name: string, size: number, idempotencyKey?: string): Promise<string> {
  const form = new FormData();
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode('%PDF-1.4\n'));
  form.append('files[]', new Blob([bytes], { type: 'application/pdf' }), name);
  try {
    const res = await fetch(`${tls.baseUrl}/api/v1/documents/upload_files`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
      body: form,
      dispatcher: agent,
    } as RequestInit);
    await res.arrayBuffer();
    return String(res.status);
  } catch (error) {
    const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
    return `lost: ${cause?.code ?? cause?.message ?? String(error)}`;
  }
}

it('a repeat under a key whose first upload is still arriving gets its 409 through nginx, every time', async () => {
  const answers: string[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Two kept-alive connections, as the suite's earlier requests leave them.
    await Promise.all([upload(`warm-${i}-a.pdf`, 800), upload(`warm-${i}-b.pdf`, 800)]);
    answers.push(...(await Promise.all([upload(`same-${i}.pdf`, 65_536, `key-${i}`), upload(`same-${i}.pdf`, 65_536, `key-${i}`)])));
  }
  expect(answers.filter((a) => a.startsWith('lost'))).toEqual([]);
  expect(answers.filter((a) => a === '202')).toHaveLength(ROUNDS);
}, 120_000);
